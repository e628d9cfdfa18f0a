package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flipper.token.Query;
import dev.flipper.workflow.engine.InstanceSummary;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.master.client.TokenMasterClient;
import dev.flipper.workflow.schedule.ScheduleData;
import dev.flipper.workflow.schedule.ScheduleTokens;
import dev.flipper.workflow.scheduler.InstanceStarter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Acceptance of the scheduler with real processes: a master process on a fresh MariaDB database
 * (127.0.0.1:3306, root, no password; dropped after the test), scheduler processes ({@code -m
 * scheduler}) and a schedule written by {@code flipper workflow apply}. No workers run, so the
 * instances stay RUNNING (START_NEW lets them pile up).
 */
@Tag("mariadb")
@Tag("processes")
class SchedulerProcessesTest {
  private static final Pattern THRIFT_PORT =
      Pattern.compile("flipper: master ready, .*thrift port (\\d+).*");
  private static final String SERVER = WorkerProcessesMariaDbTest.SERVER;

  @TempDir Path dir;
  private final List<FlipperProcess> processes = new ArrayList<>();
  private String database;
  private TokenMasterClient client;
  private int masterPort;

  @AfterEach
  void stopAll() {
    if (client != null) {
      client.close();
    }
    processes.forEach(FlipperProcess::close);
    if (database != null) {
      WorkerProcessesMariaDbTest.execute("DROP DATABASE IF EXISTS " + database);
    }
  }

  @Test
  void threeSchedulerProcessesFireEverySlotOfAOneSecondScheduleExactlyOnce() throws Exception {
    startMaster();
    List<FlipperProcess> schedulers = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      // Two loops each: six schedulers in three processes claim the same schedule.
      schedulers.add(start("-m", "scheduler", "--set", "scheduler.count=2"));
    }
    for (FlipperProcess scheduler : schedulers) {
      assertThat(scheduler.awaitReady(List.of("scheduler"))).isNotEmpty();
    }
    // Every whole second is a slot; the schedule fires from the first slot at or after the apply.
    Instant applied = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    Path tick = dir.resolve("tick.yaml");
    Files.writeString(
        tick,
        String.join(
            "\n",
            "workflow: tick",
            "schedule:",
            "  every: 1s",
            "  start: \"2026-01-01T00:00:00Z\"",
            "  overrun: START_NEW",
            "  maxRunning: 1000",
            "  catchUp: 5", // a loaded machine may claim a slot after the next one is due: fire
            // both, skip none
            "jobs:",
            "  a:",
            "    command: \"true\"",
            ""));
    FlipperProcess apply = start("workflow", "apply", "--host", "127.0.0.1", tick.toString());
    assertThat(apply.awaitExit(Duration.ofSeconds(60))).as(apply.output()).isZero();

    WorkflowEngine engine = WorkflowEngine.builder(client).build();
    await("six instances of tick")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> engine.status().instances("tick").size() >= 6);
    for (FlipperProcess scheduler : schedulers) {
      scheduler.sigterm();
    }
    for (FlipperProcess scheduler : schedulers) {
      assertThat(scheduler.awaitExit(Duration.ofSeconds(30))).as(scheduler.output()).isZero();
    }

    List<Instant> slots =
        engine.status().instances("tick").stream()
            .map(InstanceSummary::params)
            .map(p -> Instant.parse(p.get(InstanceStarter.SCHEDULED_TIME)))
            .sorted()
            .toList();
    // Every slot from the first on, once, with no gap; none before the apply.
    assertThat(slots.get(0)).isAfterOrEqualTo(applied);
    List<Instant> expected = new ArrayList<>();
    for (Instant slot = slots.get(0);
        !slot.isAfter(slots.get(slots.size() - 1));
        slot = slot.plusSeconds(1)) {
      expected.add(slot);
    }
    assertThat(slots).containsExactlyElementsOf(expected);
    // An instance exists if and only if the schedule advanced: its next run is the slot after the
    // last one.
    ScheduleData schedule =
        ScheduleTokens.read(client.query(Query.prefix(ScheduleTokens.name("tick"))).get(0));
    assertThat(Instant.ofEpochMilli(schedule.nextRunMillis))
        .isEqualTo(slots.get(slots.size() - 1).plusSeconds(1));
    // The processes log what they started: together, every instance once.
    long logged =
        schedulers.stream()
            .flatMap(s -> Stream.concat(s.out().stream(), s.err().stream()))
            .filter(l -> l.contains("started tick for slot"))
            .count();
    assertThat(logged).isEqualTo(slots.size());
  }

  private void startMaster() throws Exception {
    FlipperProcess master = start("-m", "master", "--set", "master.port=0");
    master.awaitReady(List.of("master"));
    for (String line : master.out()) {
      Matcher m = THRIFT_PORT.matcher(line);
      if (m.matches()) {
        masterPort = Integer.parseInt(m.group(1));
      }
    }
    client = TokenMasterClient.builder("127.0.0.1", masterPort).build();
  }

  private FlipperProcess start(String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("-c", config().toString()));
    if (masterPort != 0) {
      all.addAll(List.of("--set", "master.port=" + masterPort));
    }
    FlipperProcess process = FlipperProcess.start(dir, all.toArray(String[]::new));
    processes.add(process);
    return process;
  }

  private Path config() throws Exception {
    Path config = dir.resolve("flipper.yaml");
    if (!Files.exists(config)) {
      database = "flipper_t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
      WorkerProcessesMariaDbTest.execute("CREATE DATABASE " + database + " CHARACTER SET utf8mb4");
      Files.writeString(
          config,
          String.join(
              "\n",
              "master:",
              "  adminPort: 0",
              "  jdbcUrl: \"" + SERVER + database + "\"",
              "  jdbcUser: root",
              "scheduler:",
              "  adminPort: 0",
              "  masterHost: 127.0.0.1",
              "  maxWait: 2s",
              "logging:",
              "  level: INFO",
              ""));
    }
    return config;
  }
}
