package dev.flipper.launcher.workflow;

import dev.flipper.token.TokenException;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.control.ArchivedTokens;
import dev.flipper.workflow.engine.StatusReader;
import dev.flipper.workflow.engine.WorkflowEngine;
import java.io.PrintWriter;
import java.util.function.Function;

/** A workflow engine over a connection to the master, closed together. */
final class WorkflowClient implements AutoCloseable {
  final TokenMaster master;
  final WorkflowEngine engine;

  WorkflowClient(MasterOptions options) {
    this.master = options.connect();
    this.engine = WorkflowEngine.builder(master).build();
  }

  /**
   * {@code read} over the status with the master's archived tokens. A master that cannot serve them
   * (Pinball's has no archive method) is reported once on stderr and gives {@code none}, so the
   * active state still shows.
   */
  <T> T readArchive(Function<StatusReader, T> read, T none, PrintWriter err) {
    try {
      return read.apply(engine.status().withArchive(ArchivedTokens.of(master)::query));
    } catch (TokenException e) {
      err.println("archived instances not shown: " + e.getMessage());
      return none;
    }
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
