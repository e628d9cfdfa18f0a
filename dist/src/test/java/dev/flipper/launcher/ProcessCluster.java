package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.InstanceDetail;
import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.master.client.TokenMasterClient;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A master process and worker processes ({@code -m workers}) on one token database, as the
 * acceptance tests with real processes use them: one config file (short leases and heartbeats keep
 * tests bounded), an engine over a Thrift client of the master, and the CLI against it. Test
 * helper; not thread-safe.
 */
final class ProcessCluster implements AutoCloseable {
  private static final Pattern THRIFT_PORT =
      Pattern.compile("flipper: master ready, .*thrift port (\\d+).*");

  private final Path dir;
  private final String tokenDatabase;
  private final List<FlipperProcess> processes = new ArrayList<>();
  private TokenMasterClient client;
  private WorkflowEngine engine;
  private int masterPort;

  /**
   * @param dir the processes' working directory, where the config and the logs go
   * @param tokenDatabase the JDBC URL of an empty token database
   */
  ProcessCluster(Path dir, String tokenDatabase) {
    this.dir = dir;
    this.tokenDatabase = tokenDatabase;
  }

  Path config() throws Exception {
    Path config = dir.resolve("flipper.yaml");
    if (!Files.exists(config)) {
      Files.writeString(
          config,
          String.join(
              "\n",
              "master:",
              "  adminPort: 0",
              "  jdbcUrl: \"" + tokenDatabase + "\"",
              "  jdbcUser: root",
              "workers:",
              "  adminPort: 0",
              "  count: 3",
              "  lease: 3s",
              "  shutdownGrace: 2s",
              "  heartbeatInterval: 300ms",
              "  advertisedHost: 127.0.0.1",
              "  masterHost: 127.0.0.1",
              "logging:",
              "  level: INFO",
              ""));
    }
    return config;
  }

  /**
   * Starts a master on {@code port} (0 = any) and waits until it is ready; the first one gets the
   * client.
   */
  FlipperProcess startMaster(int port) throws Exception {
    FlipperProcess master =
        FlipperProcess.start(
            dir, "-c", config().toString(), "-m", "master", "--set", "master.port=" + port);
    processes.add(master);
    master.awaitReady(List.of("master"));
    for (String line : master.out()) {
      Matcher m = THRIFT_PORT.matcher(line);
      if (m.matches()) {
        masterPort = Integer.parseInt(m.group(1));
      }
    }
    if (client == null) {
      client = TokenMasterClient.builder("127.0.0.1", masterPort).build();
      engine = WorkflowEngine.builder(client).build();
    }
    return master;
  }

  /**
   * Starts a workers process with its own log directory {@code logs-<name>} and these {@code
   * --set}s.
   */
  FlipperProcess startWorkers(String name, String... sets) throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                "-c",
                config().toString(),
                "-m",
                "workers",
                "--set",
                "master.port=" + masterPort,
                "--set",
                "workers.logDir=" + dir.resolve("logs-" + name)));
    for (String set : sets) {
      args.add("--set");
      args.add(set);
    }
    FlipperProcess workers = FlipperProcess.start(dir, args.toArray(String[]::new));
    processes.add(workers);
    return workers;
  }

  int masterPort() {
    return masterPort;
  }

  WorkflowEngine engine() {
    return engine;
  }

  /** Applies the definition and starts an instance of it. */
  String start(WorkflowDefinition definition) {
    engine.definitions().apply(List.of(definition));
    return engine.instances().start(definition.name());
  }

  InstanceDetail detail(String workflow, String instance) {
    return engine.status().instance(workflow, instance).orElseThrow();
  }

  InstanceDetail awaitEnd(String workflow, String instance, Duration within) {
    await(workflow + "/" + instance + " ends")
        .atMost(within)
        .pollInterval(Duration.ofMillis(200))
        .until(() -> detail(workflow, instance).summary().status() != InstanceStatus.RUNNING);
    return detail(workflow, instance);
  }

  /**
   * {@code flipper workflow args...} against the master; its stdout. Fails unless the exit code is
   * 0.
   */
  String workflowCli(String... args) {
    List<String> all = new ArrayList<>(List.of("workflow"));
    all.addAll(List.of(args));
    all.addAll(List.of("--set", "master.port=" + masterPort, "--host", "127.0.0.1"));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Launcher.execute(all.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err));
    assertThat(code).as(String.join(" ", all) + "\n" + out + err).isZero();
    return out.toString();
  }

  @Override
  public void close() {
    if (client != null) {
      client.close();
    }
    processes.forEach(FlipperProcess::close);
  }
}
