package dev.flipper.launcher.workflow;

import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.engine.WorkflowEngine;

/** A workflow engine over a connection to the master, closed together. */
final class WorkflowClient implements AutoCloseable {
  final TokenMaster master;
  final WorkflowEngine engine;

  WorkflowClient(MasterOptions options) {
    this.master = options.connect();
    this.engine = WorkflowEngine.builder(master).build();
  }

  @Override
  public void close() {
    if (master instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        // Closing a client connection; nothing the user can act on.
      }
    }
  }
}
