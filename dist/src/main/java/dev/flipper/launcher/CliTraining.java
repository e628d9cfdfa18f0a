package dev.flipper.launcher;

import dev.flipper.launcher.logging.CliLogConfigurator;
import dev.flipper.launcher.logging.CliLoggingProvider;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.memory.InMemoryQueueStore;
import dev.flipper.queue.server.QueueServer;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.master.server.TokenMasterServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The training run of the class data sharing archive of the command-line tools ({@code
 * lib/flipper-cli.jsa}, made by the dist build from the classes this run loads, {@code
 * -XX:DumpLoadedClassList}): runs, in one JVM, {@code --version}, the help, and {@code workflow
 * apply/status/start} and {@code queue-tool --mode lookup} against an in-memory master and queue
 * server on free ports, so that the classes of those commands are in the archive. Prints one line;
 * exit code 0 even when a command failed (the archive then holds fewer classes, nothing worse).
 */
public final class CliTraining {
  private CliTraining() {}

  public static void main(String[] args) throws Exception {
    // As bin/flipper runs the tools.
    System.setProperty(CliLogConfigurator.PROPERTY, "true");
    System.setProperty("slf4j.provider", CliLoggingProvider.class.getName());
    System.setProperty("slf4j.internal.verbosity", "WARN");
    Path dir = Files.createTempDirectory("flipper-cli-training");
    Path workflow = dir.resolve("training.yaml");
    Files.writeString(
        workflow,
        "workflow: training\njobs:\n  a:\n    command: echo a\n  b:\n    needs: [a]\n"
            + "    command: echo b\n");
    InMemoryQueueStore store = InMemoryQueueStore.withShards("1");
    QueueService service = QueueService.builder(store).serverId("cli-training").build();
    QueueServer queue = QueueServer.builder(service).bindHost("127.0.0.1").port(0).build().start();
    TokenMasterServer master =
        TokenMasterServer.builder(TokenService.builder(InMemoryTokenStore.create()).build())
            .port(0)
            .bindHost("127.0.0.1")
            .build()
            .start();
    StringBuilder codes = new StringBuilder();
    try {
      String masterPort = "master.port=" + master.port();
      String queuePort = Integer.toString(queue.port());
      String[][] commands = {
        {"--version"},
        {"--help"},
        {"workflow", "--help"},
        {"workflow", "status", "--help"},
        {"workflow", "apply", "--set", masterPort, workflow.toString()},
        {"workflow", "status", "--set", masterPort},
        {"workflow", "status", "--set", masterPort, "--json"},
        {"workflow", "start", "--set", masterPort, "-w", "training"},
        {"workflow", "status", "--set", masterPort, "-w", "training"},
        {"queue-tool", "--port", queuePort, "--mode", "create", "--queue", "training"},
        {
          "queue-tool",
          "--port",
          queuePort,
          "--mode",
          "enqueue",
          "--queue",
          "training",
          "--body",
          "x"
        },
        {
          "queue-tool",
          "--port",
          queuePort,
          "--mode",
          "lookup",
          "--job_descriptor",
          "training:s1:p1:1"
        },
        {
          "queue-tool",
          "--port",
          queuePort,
          "--mode",
          "lookup",
          "--json",
          "--job_descriptor",
          "training:s1:p1:1"
        },
      };
      for (String[] command : commands) {
        StringWriter sink = new StringWriter();
        PrintWriter writer = new PrintWriter(sink, true);
        codes.append(Launcher.execute(command, writer, writer));
      }
    } finally {
      master.close();
      queue.close();
      store.close();
      Files.deleteIfExists(workflow);
      Files.deleteIfExists(dir);
    }
    System.out.println("flipper: CLI training run done, exit codes " + codes);
  }
}
