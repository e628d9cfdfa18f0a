package dev.flipper.launcher;

import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.definition.WorkflowFileSet;
import dev.flipper.workflow.definition.WorkflowParser;
import dev.flipper.workflow.engine.WorkflowEngine;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The demo's workflows: {@code examples/workflows/*.yaml} in a source checkout, else the copies
 * bundled in the jar. Applied to the master; one instance of {@link #STARTED} runs to SUCCESS by
 * itself. Stateless.
 */
final class DemoWorkflows {
  /** The workflow the demo starts: short shell jobs that pass data, done in a few seconds. */
  static final String STARTED = "etl";

  static final Path CHECKOUT_DIR = Path.of("examples", "workflows");
  private static final List<String> BUNDLED = List.of("etl", "diamond", "sensor");

  private DemoWorkflows() {}

  /** Applies the example workflows and starts one instance of {@link #STARTED}; returns its id. */
  static String applyAndStart(TokenMaster master) {
    WorkflowEngine engine = WorkflowEngine.builder(master).build();
    engine.definitions().apply(read());
    return engine.instances().start(STARTED, "demo", Map.of());
  }

  static List<WorkflowDefinition> read() {
    if (Files.isDirectory(CHECKOUT_DIR)) {
      WorkflowFileSet.Result result = WorkflowFileSet.read(List.of(CHECKOUT_DIR));
      if (!result.isValid()) {
        throw new IllegalStateException("invalid example workflows: " + result.problems());
      }
      return result.definitions();
    }
    List<WorkflowDefinition> definitions = new ArrayList<>();
    for (String name : BUNDLED) {
      String resource = "demo/" + name + ".yaml";
      try (InputStream in = DemoWorkflows.class.getResourceAsStream(resource)) {
        if (in == null) {
          throw new IllegalStateException("the jar lacks " + resource + " (a build problem)");
        }
        definitions.add(
            WorkflowParser.parse(
                name + ".yaml", new String(in.readAllBytes(), StandardCharsets.UTF_8)));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return definitions;
  }
}
