package dev.flipper.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flipper.queue.mysql.JdbcShardConfig;
import dev.flipper.queue.redis.RedisShardConfig;
import dev.flipper.queue.server.QueueDaemon;
import dev.flipper.workflow.mail.MailSecurity;
import dev.flipper.workflow.mail.MailSettings;
import dev.flipper.workflow.mail.UiLinks;
import dev.flipper.workflow.master.MasterDaemon;
import dev.flipper.workflow.ui.UiDaemon;
import dev.flipper.workflow.worker.WorkerDaemon;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {

  private static FlipperConfig parse(String yaml, String... sets) {
    return parse(yaml, Map.of(), sets);
  }

  private static FlipperConfig parse(String yaml, Map<String, String> env, String... sets) {
    return ConfigLoader.parse("conf.yaml", yaml, List.of(sets), env);
  }

  /** The exact error text for a config that must fail. */
  private static String error(String yaml, String... sets) {
    return error(yaml, Map.of(), sets);
  }

  private static String error(String yaml, Map<String, String> env, String... sets) {
    try {
      parse(yaml, env, sets);
    } catch (ConfigException e) {
      return e.getMessage();
    }
    throw new AssertionError("expected a ConfigException for:\n" + yaml);
  }

  @Nested
  class Valid {
    @Test
    void emptyFileGivesEveryDefault() {
      FlipperConfig config = parse("");

      assertThat(config.storage().backend()).isEqualTo(StorageBackend.JDBC);
      assertThat(config.storage().jdbc().shards())
          .containsExactly(
              new JdbcShardConfig(
                  "1", "jdbc:h2:file:./data/flipper;MODE=MySQL;AUTO_SERVER=TRUE", "", "", false));
      assertThat(config.storage().jdbc().poolSize()).isEqualTo(10);
      assertThat(config.storage().redis().shards())
          .containsExactly(new RedisShardConfig("1", "127.0.0.1", 6379, 0, "", false));
      assertThat(config.storage().redis().keyPrefix()).isEqualTo("flipper:");
      assertThat(config.queue())
          .isEqualTo(
              new QueueDaemon.Config(
                  "127.0.0.1",
                  9010,
                  3,
                  1_048_576,
                  16_777_216,
                  Duration.ofMinutes(10),
                  Duration.ofHours(24),
                  Duration.ofDays(7),
                  Duration.ofMinutes(1),
                  5000,
                  "",
                  "",
                  "",
                  Duration.ZERO,
                  200,
                  Duration.ofMinutes(5),
                  Duration.ofSeconds(60),
                  10_000_000,
                  Duration.ofSeconds(10),
                  4096,
                  512,
                  4));
      assertThat(config.network()).isEqualTo(new NetworkConfig("127.0.0.1"));
      assertThat(config.master()).isEqualTo(new MasterDaemon.Config("127.0.0.1", 9090));
      assertThat(config.masterStore()).isEqualTo(new MasterStoreConfig("", "", ""));
      assertThat(config.workers())
          .isEqualTo(
              new WorkerDaemon.Config(
                  2,
                  Duration.ofSeconds(60),
                  Duration.ofHours(12),
                  Duration.ofSeconds(20),
                  "./data/logs",
                  "",
                  "",
                  "127.0.0.1"));
      assertThat(config.ui()).isEqualTo(new UiDaemon.Config("127.0.0.1", 8080, "127.0.0.1"));
      assertThat(config.admin())
          .isEqualTo(
              Map.of(
                  "queue", new AdminConfig("127.0.0.1", 9999),
                  "master", new AdminConfig("127.0.0.1", 9091),
                  "scheduler", new AdminConfig("127.0.0.1", 9092),
                  "workers", new AdminConfig("127.0.0.1", 9093),
                  "ui", new AdminConfig("127.0.0.1", 9094)));
      assertThat(config.email()).isEqualTo(MailSettings.disabled());
      assertThat(config.uiLinks()).isEqualTo(new UiLinks(""));
      assertThat(config.logging()).isEqualTo(new LoggingConfig("INFO", ""));
    }

    @Test
    void everyKeyOfTheSchemaIsReadIntoTheRecords() {
      assertThat(parse("").values().unreadKeys()).isEmpty();
    }

    @Test
    void readsEveryKindOfValue() {
      FlipperConfig config =
          parse(
              """
              storage:
                backend: redis
                jdbc:
                  shards:
                    - {name: a, url: "jdbc:mysql://db1/flipper", user: flipper, password: s3cret}
                    - name: b
                      url: jdbc:mysql://db2/flipper
                      dequeueOnly: true
                redis:
                  shards: [{name: r1, host: redis1, port: 6380, database: 2}]
                  keyPrefix: test
              queue:
                port: 0
                priorityLevels: 5
                maxBodyBytes: 2_000_000
                claimTimeout: 2h
                failedTtl: 30d
                longPollTimeout: 500ms
              workers:
                maxLogBytes: 16 MiB
                minFreeDiskBytes: 2GiB
                maxLogFolderBytes: 100_000
              email:
                enabled: true
                smtpHost: mail.example.com
                from: flipper@example.com
                to: [ops@example.com, dev@example.com]
                user: flipper
                password: s3cret
                security: starttls
                smtpPort: 587
                attempts: 2
                retryDelay: 1s
                timeout: 3s
              ui:
                baseUrl: https://flipper.example.com/
              logging:
                level: debug
                file: logs/{mode}.log
              """);

      assertThat(config.storage().backend()).isEqualTo(StorageBackend.REDIS);
      assertThat(config.storage().jdbc().shards())
          .containsExactly(
              new JdbcShardConfig("a", "jdbc:mysql://db1/flipper", "flipper", "s3cret", false),
              new JdbcShardConfig("b", "jdbc:mysql://db2/flipper", "", "", true));
      assertThat(config.storage().redis())
          .isEqualTo(
              new RedisStorageConfig(
                  List.of(new RedisShardConfig("r1", "redis1", 6380, 2, "", false)), "test"));
      assertThat(config.queue().port()).isZero();
      assertThat(config.queue().priorityLevels()).isEqualTo(5);
      assertThat(config.queue().maxBodyBytes()).isEqualTo(2_000_000);
      assertThat(config.queue().claimTimeout()).isEqualTo(Duration.ofHours(2));
      assertThat(config.queue().failedTtl()).isEqualTo(Duration.ofDays(30));
      assertThat(config.queue().longPollTimeout()).isEqualTo(Duration.ofMillis(500));
      assertThat(config.workers().maxLogBytes()).isEqualTo(16L << 20);
      assertThat(config.workers().minFreeDiskBytes()).isEqualTo(2L << 30);
      assertThat(config.workers().maxLogFolderBytes()).isEqualTo(100_000);
      assertThat(config.email())
          .isEqualTo(
              new MailSettings(
                  true,
                  "mail.example.com",
                  587,
                  "flipper",
                  "s3cret",
                  MailSecurity.STARTTLS,
                  "flipper@example.com",
                  List.of("ops@example.com", "dev@example.com"),
                  2,
                  Duration.ofSeconds(1),
                  Duration.ofSeconds(3),
                  false));
      assertThat(config.uiLinks().instance("etl", "17"))
          .isEqualTo("https://flipper.example.com/workflows/etl/instances/17");
      assertThat(config.logging()).isEqualTo(new LoggingConfig("DEBUG", "logs/{mode}.log"));
    }

    @Test
    void idleTimeoutsReachTheServerConfigs() {
      FlipperConfig config = parse("queue:\n  idleTimeout: 2m\nmaster:\n  idleTimeout: 90s\n");

      assertThat(config.master().idleTimeout()).isEqualTo(Duration.ofSeconds(90));
      assertThat(config.queue().idleTimeout()).isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void bodyFilterBudgetsReachTheQueueConfig() {
      FlipperConfig config =
          parse("queue:\n  bodyFilterStepsPerBody: 50000\n  bodyFilterTimePerCall: 2s\n");

      assertThat(config.queue().bodyFilterStepsPerBody()).isEqualTo(50_000);
      assertThat(config.queue().bodyFilterTimePerCall()).isEqualTo(Duration.ofSeconds(2));
      assertThat(error("queue:\n  bodyFilterStepsPerBody: 10\n"))
          .contains("queue.bodyFilterStepsPerBody");
    }

    @Test
    void emptySectionMeansDefaults() {
      assertThat(parse("queue:\nmaster:\n").queue().port()).isEqualTo(9010);
    }

    @Test
    void substitutesEnvironmentVariablesWithDefaults() {
      String yaml =
          """
          queue:
            port: ${QUEUE_PORT:-9011}
            adminPort: ${ADMIN_PORT:-9012}
          storage:
            jdbc:
              shards: [{name: "1", url: "jdbc:mysql://${DB_HOST:-localhost}/flipper", password: "${DB_PASSWORD}"}]
          """;

      FlipperConfig config =
          parse(yaml, Map.of("QUEUE_PORT", "7000", "ADMIN_PORT", "", "DB_PASSWORD", "pw"));

      assertThat(config.queue().port()).isEqualTo(7000);
      assertThat(config.admin("queue").adminPort())
          .isEqualTo(9012); // empty counts as unset, as in the shell
      assertThat(config.storage().jdbc().shards().get(0).url())
          .isEqualTo("jdbc:mysql://localhost/flipper");
      assertThat(config.storage().jdbc().shards().get(0).password()).isEqualTo("pw");
    }

    @Test
    void dollarDollarBraceIsALiteral() {
      assertThat(parse("email:\n  from: \"$${HOME}\"\n").email().from()).isEqualTo("${HOME}");
    }

    @Test
    void setOverridesTheFileAndTheDefaults() {
      FlipperConfig config =
          parse(
              "queue:\n  port: 9010\n",
              "queue.port=9011",
              "workers.count=7",
              "email.to=[a@example.com, b@example.com]",
              "storage.jdbc.shards=[{name: x, url: 'jdbc:h2:mem:x'}]",
              "logging.file=");

      assertThat(config.queue().port()).isEqualTo(9011);
      assertThat(config.workers().count()).isEqualTo(7);
      assertThat(config.email().to()).containsExactly("a@example.com", "b@example.com");
      assertThat(config.storage().jdbc().shards())
          .containsExactly(new JdbcShardConfig("x", "jdbc:h2:mem:x", "", "", false));
      assertThat(config.logging().file()).isEmpty();
    }

    @Test
    void setKeepsAValueWithEqualsSignsAndColonsWhole() {
      FlipperConfig config = parse("", "storage.redis.keyPrefix=a=b: c");

      assertThat(config.storage().redis().keyPrefix()).isEqualTo("a=b: c");
    }

    @Test
    void loadsAFileAndNamesItInErrors(@TempDir Path dir) throws Exception {
      Path file = dir.resolve("flipper.yaml");
      Files.writeString(file, "queue:\n  port: 1234\n");

      assertThat(ConfigLoader.load(file, List.of(), Map.of()).queue().port()).isEqualTo(1234);

      Files.writeString(file, "queue:\n  port: x\n");
      assertThatThrownBy(() -> ConfigLoader.load(file, List.of(), Map.of()))
          .hasMessage(file + ":2: 'queue.port' must be an integer, got 'x'");
    }

    @Test
    void sharedBindAddressAppliesToEveryDaemonUnlessItsSectionSetsItsOwn() {
      FlipperConfig config =
          parse("network: {bindAddress: 0.0.0.0}\nqueue: {bindAddress: 10.1.2.3}\n");

      assertThat(config.queue().bindAddress()).isEqualTo("10.1.2.3");
      assertThat(config.admin("queue").bindAddress()).isEqualTo("10.1.2.3");
      assertThat(config.master().bindAddress()).isEqualTo("0.0.0.0");
      assertThat(config.ui().bindAddress()).isEqualTo("0.0.0.0");
      for (String section : List.of("master", "scheduler", "workers", "ui")) {
        assertThat(config.admin(section).bindAddress()).as(section).isEqualTo("0.0.0.0");
      }
      assertThat(parse("", "master.bindAddress=::1").master().bindAddress()).isEqualTo("::1");
    }

    @Test
    void printedConfigShowsTheAddressEachDaemonGot() {
      String printed = parse("network: {bindAddress: 0.0.0.0}\n").values().toOneLine(true);

      assertThat(printed)
          .contains(
              "network.bindAddress=0.0.0.0", "queue.bindAddress=0.0.0.0", "ui.bindAddress=0.0.0.0");
    }

    @Test
    void printedConfigMasksSecretsAndReadsBackToTheSameConfig() {
      FlipperConfig config =
          parse(
              """
              storage:
                jdbc:
                  shards: [{name: a, url: "jdbc:h2:mem:a", password: hunter2}]
              queue:
                adminPasswordHash: %s
                claimTimeout: 90s
              """
                  .formatted("ab".repeat(32)));

      String masked = config.values().toYaml(true);
      assertThat(masked)
          .doesNotContain("hunter2")
          .doesNotContain("ab".repeat(32))
          .contains("*****");
      assertThat(config.toString()).doesNotContain("hunter2").doesNotContain("ab".repeat(32));
      assertThat(config.storage().jdbc().shards().get(0).toString()).doesNotContain("hunter2");

      FlipperConfig reread = parse(config.values().toYaml(false));
      assertThat(reread.storage()).isEqualTo(config.storage());
      assertThat(reread.queue()).isEqualTo(config.queue());
      assertThat(reread.queue().claimTimeout()).isEqualTo(Duration.ofSeconds(90));
      assertThat(reread.email()).isEqualTo(config.email());
    }
  }

  @Nested
  class Invalid {
    @Test
    void aValueTheModuleRefusesIsReportedWithItsPlace() {
      assertThat(error("storage:\n  redis:\n    shards: [{name: r1, host: \"\"}]\n"))
          .isEqualTo(
              "conf.yaml:3: 'storage.redis.shards[0]': Redis shard 'r1': host must not be blank");
    }

    @Test
    void aBindAddressMustLookLikeAnAddress() {
      assertThat(error("network:\n  bindAddress: \"\"\n"))
          .isEqualTo(
              "conf.yaml:2: 'network.bindAddress' must be an IP address or host name, got ''");
      assertThat(error("queue:\n  bindAddress: \"10.0.0.1 10.0.0.2\"\n"))
          .isEqualTo(
              "conf.yaml:2: 'queue.bindAddress' must be empty or an IP address or host name, got '10.0.0.1 10.0.0.2'");
    }

    @Test
    void unknownKeySuggestsTheClosestKey() {
      String yaml =
          """
          # Flipper configuration
          storage:
            backend: jdbc
            jdbc:
              poolSize: 10

          master:
            port: 9090

          queue:
            adminPort: 9999
            prot: 9011
          """;

      assertThat(error(yaml))
          .isEqualTo("conf.yaml:12: unknown key 'queue.prot' (did you mean 'queue.port'?)");
    }

    @Test
    void unknownKeyWithoutCloseMatchListsTheValidKeys() {
      assertThat(error("ui:\n  colour: blue\n"))
          .isEqualTo(
              "conf.yaml:2: unknown key 'ui.colour' (valid keys in 'ui': bindAddress, port, masterHost, adminPort, "
                  + "baseUrl, users, trustedUserHeader, trustedProxies, allowedHosts, allowAnonymous, queueServers,"
                  + " queueServerSetFile, queueAdminPassword)");
    }

    @Test
    void queueServersOfTheDashboardMustBeHostPortAndOneWay() {
      assertThat(error("ui:\n  queueServers: [\"queue1:9010\", \"queue2\"]\n"))
          .contains("ui.queueServers[1]: server address 'queue2' must look like host:port");
      assertThat(
              error(
                  "ui:\n  queueServers: [\"queue1:9010\"]\n  queueServerSetFile: /etc/flipper/servers\n"))
          .contains("ui.queueServers and ui.queueServerSetFile are both set");
    }

    @Test
    void keyInTheWrongSectionSuggestsTheRightOne() {
      assertThat(error("master:\n  priorityLevels: 3\n"))
          .isEqualTo(
              "conf.yaml:2: unknown key 'master.priorityLevels' (did you mean 'queue.priorityLevels'?)");
    }

    @Test
    void unknownSection() {
      assertThat(error("quee:\n  port: 1\n"))
          .isEqualTo("conf.yaml:1: unknown section 'quee' (did you mean 'queue'?)");
      assertThat(error("metrics: {}\n"))
          .isEqualTo(
              "conf.yaml:1: unknown section 'metrics' (sections: storage, network, security, queue, master, scheduler, workers,"
                  + " ui, email, logging)");
    }

    @Test
    void stringWhereAnIntegerIsExpected() {
      assertThat(error("queue:\n  port: abc\n"))
          .isEqualTo("conf.yaml:2: 'queue.port' must be an integer, got 'abc'");
    }

    @Test
    void listWhereASectionIsExpected() {
      assertThat(error("queue: [1, 2]\n"))
          .isEqualTo(
              "conf.yaml:1: section 'queue' must be a map of keys (bindAddress, port, adminPort, priorityLevels,"
                  + " maxBodyBytes, maxFrameBytes, claimTimeout, succeededTtl, failedTtl, monitorInterval,"
                  + " monitorBatchSize, rateLimitFile, serverSetFile, adminPasswordHash, longPollTimeout,"
                  + " directCallLimitMicros, idleTimeout, frameReadTimeout, bodyFilterStepsPerBody, bodyFilterTimePerCall,"
                  + " maxConnections, maxConnectionsPerPeer, maxConcurrentBodyFilters),"
                  + " got a list");
      assertThat(error("storage:\n  jdbc: 5\n"))
          .isEqualTo(
              "conf.yaml:2: 'storage.jdbc' must be a map of keys (shards, poolSize), got '5'");
    }

    @Test
    void mapWhereAScalarIsExpected() {
      assertThat(error("queue:\n  claimTimeout: {minutes: 10}\n"))
          .isEqualTo(
              "conf.yaml:2: 'queue.claimTimeout' must be a duration like 500ms, 30s, 10m, 24h or 7d, got a map");
    }

    @Test
    void valueLeftEmpty() {
      assertThat(error("queue:\n  port:\n"))
          .isEqualTo(
              "conf.yaml:2: 'queue.port' has no value (remove the key to use the default, 9010)");
    }

    @Test
    void shardWithoutRequiredUrl() {
      String yaml =
          """
          storage:
            jdbc:
              shards:
                - name: a
                  user: root
          """;

      assertThat(error(yaml)).isEqualTo("conf.yaml:4: 'storage.jdbc.shards[0].url' is required");
    }

    @Test
    void integerOutOfRange() {
      assertThat(error("queue:\n  priorityLevels: 500\n"))
          .isEqualTo("conf.yaml:2: 'queue.priorityLevels' must be between 1 and 100, got 500");
      assertThat(error("queue:\n  port: 70000\n"))
          .isEqualTo("conf.yaml:2: 'queue.port' must be between 0 and 65535, got 70000");
      assertThat(error("queue:\n  maxFrameBytes: 100\n"))
          .isEqualTo("conf.yaml:2: 'queue.maxFrameBytes' must be at least 1024, got 100");
    }

    @Test
    void badDuration() {
      assertThat(error("queue:\n  claimTimeout: 10 minutes\n"))
          .isEqualTo(
              "conf.yaml:2: 'queue.claimTimeout' must be a duration like 500ms, 30s, 10m, 24h or 7d,"
                  + " got '10 minutes'");
      assertThat(error("queue:\n  claimTimeout: 600\n"))
          .isEqualTo(
              "conf.yaml:2: 'queue.claimTimeout' must be a duration like 500ms, 30s, 10m, 24h or 7d,"
                  + " got '600'");
    }

    @Test
    void badSize() {
      assertThat(error("workers:\n  maxLogBytes: 64MB\n"))
          .isEqualTo(
              "conf.yaml:2: 'workers.maxLogBytes' must be a size in bytes like 65536, 64KiB, 64MiB or"
                  + " 2GiB, got '64MB'");
      assertThat(error("workers:\n  minFreeDiskBytes: -1\n"))
          .startsWith("conf.yaml:2: 'workers.minFreeDiskBytes' must be a size in bytes");
      assertThatThrownBy(() -> parse("workers:\n  maxLogBytes: 100\n"))
          .hasMessageContaining("workers.maxLogBytes is 100; use 0 (no cap) or at least 1024");
    }

    @Test
    void durationBelowItsMinimum() {
      assertThat(error("queue:\n  monitorInterval: 10ms\n"))
          .isEqualTo("conf.yaml:2: 'queue.monitorInterval' must be at least 1s, got 10ms");
    }

    @Test
    void twoPortsWithTheSameNumber() {
      assertThat(error("queue:\n  port: 9010\n  adminPort: 9010\n"))
          .isEqualTo(
              "conf.yaml:3: 'queue.adminPort' and 'queue.port' are both 9010; every port of the config must"
                  + " differ (0 = any free port)");
      assertThat(error("master:\n  port: 9010\n"))
          .isEqualTo(
              "conf.yaml:2: 'master.port' and 'queue.port' are both 9010; every port of the config must"
                  + " differ (0 = any free port)");
      assertThat(parse("queue:\n  port: 0\n  adminPort: 0\n").queue().port()).isZero();
    }

    @Test
    void mariaDbUrlIsRefusedWithTheMysqlUrlToWriteInstead() {
      assertThat(
              error(
                  "storage:\n  jdbc:\n    shards: [{name: a, url: \"jdbc:mariadb://db1:3306/flipper?x=1\"}]\n"
                      + "master:\n  jdbcUrl: JDBC:MariaDB://db2/tokens\n"))
          .isEqualTo(
              "conf.yaml:3: 'storage.jdbc.shards[0].url' is a jdbc:mariadb: URL, whose driver (MariaDB "
                  + "Connector/J) is not bundled: write 'jdbc:mysql://db1:3306/flipper?x=1' instead (mysql-connector-j "
                  + "is bundled and works with MariaDB 10.6+)\n"
                  + "conf.yaml:5: 'master.jdbcUrl' is a jdbc:mariadb: URL, whose driver (MariaDB Connector/J) is not "
                  + "bundled: write 'jdbc:mysql://db2/tokens' instead (mysql-connector-j is bundled and works with "
                  + "MariaDB 10.6+)");
    }

    @Test
    void badEnumValue() {
      assertThat(error("storage:\n  backend: mysql\n"))
          .isEqualTo("conf.yaml:2: 'storage.backend' must be one of jdbc, redis, got 'mysql'");
    }

    @Test
    void badBoolean() {
      assertThat(error("email:\n  enabled: yes\n"))
          .isEqualTo("conf.yaml:2: 'email.enabled' must be true or false, got 'yes'");
    }

    @Test
    void unsetEnvironmentVariableWithoutDefault() {
      String yaml =
          "storage:\n  jdbc:\n    shards: [{name: a, url: \"jdbc:h2:mem:a\", password: \"${DB_PASSWORD}\"}]\n";

      assertThat(error(yaml))
          .isEqualTo(
              "conf.yaml:3: 'storage.jdbc.shards[0].password' uses ${DB_PASSWORD}, but environment variable"
                  + " DB_PASSWORD is not set (give a default: ${DB_PASSWORD:-value})");
    }

    @Test
    void badValueFromAnEnvironmentVariableShowsTheReference() {
      assertThat(error("queue:\n  port: ${PORT}\n", Map.of("PORT", "http")))
          .isEqualTo("conf.yaml:2: 'queue.port' must be an integer, got 'http' (from '${PORT}')");
    }

    @Test
    void malformedVariableReference() {
      assertThat(error("email:\n  from: ${1X}\n"))
          .isEqualTo(
              "conf.yaml:2: 'email.from' has a bad variable reference '${1X}' (write ${NAME} or"
                  + " ${NAME:-default})");
    }

    @Test
    void setWithoutEquals() {
      assertThat(error("", "queue.port"))
          .isEqualTo("--set queue.port: expected KEY=VALUE, for example --set queue.port=9011");
    }

    @Test
    void setOfAnUnknownKey() {
      assertThat(error("", "queue.prot=9011"))
          .isEqualTo(
              "--set queue.prot=9011: unknown key 'queue.prot' (did you mean 'queue.port'?)");
      assertThat(error("", "queue=1"))
          .startsWith(
              "--set queue=1: 'queue' is a section, not a key (its keys: bindAddress, port, adminPort,");
    }

    @Test
    void setWithABadValue() {
      assertThat(error("", "workers.count=0"))
          .isEqualTo("--set workers.count=0: 'workers.count' must be between 1 and 1000, got 0");
    }

    @Test
    void duplicateKey() {
      assertThat(error("queue:\n  port: 1\n  adminPort: 2\n  port: 3\n"))
          .isEqualTo("conf.yaml:4: duplicate key 'queue.port' (first at line 2)");
    }

    @Test
    void yamlSyntaxError() {
      assertThat(error("queue:\n  port: 1\n   adminPort: 2\n"))
          .isEqualTo(
              "conf.yaml:3: YAML syntax error: mapping values are not allowed here (column 13)");
    }

    @Test
    void tabsAreAYamlSyntaxError() {
      assertThat(error("queue:\n\tport: 1\n")).startsWith("conf.yaml:2: YAML syntax error: ");
    }

    @Test
    void emptyShardList() {
      assertThat(error("storage:\n  jdbc:\n    shards: []\n"))
          .isEqualTo("conf.yaml:3: 'storage.jdbc.shards' must list at least one jdbc shard");
    }

    @Test
    void duplicateShardName() {
      String yaml =
          """
          storage:
            redis:
              shards:
                - {name: "1", host: a}
                - {name: "1", host: b}
          """;

      assertThat(error(yaml))
          .isEqualTo(
              "conf.yaml:5: 'storage.redis.shards[1].name' repeats the name '1' of storage.redis.shards[0];"
                  + " each redis shard needs its own");
    }

    @Test
    void shardNameWithAColon() {
      assertThat(
              error("storage:\n  jdbc:\n    shards: [{name: \"a:b\", url: \"jdbc:h2:mem:a\"}]\n"))
          .isEqualTo(
              "conf.yaml:3: 'storage.jdbc.shards[0].name' must be 1-32 letters, digits or _, got 'a:b'");
    }

    @Test
    void unknownShardKeySuggestsTheRightOne() {
      assertThat(error("storage:\n  jdbc:\n    shards:\n      - name: a\n        uri: x\n"))
          .isEqualTo(
              """
              conf.yaml:4: 'storage.jdbc.shards[0].url' is required
              conf.yaml:5: unknown key 'storage.jdbc.shards[0].uri' (did you mean 'storage.jdbc.shards[0].url'?)""");
    }

    @Test
    void shardThatIsNotAMap() {
      assertThat(error("storage:\n  jdbc:\n    shards: [db1]\n"))
          .isEqualTo(
              "conf.yaml:3: 'storage.jdbc.shards[0]' must be a map with keys name, url, user, password,"
                  + " dequeueOnly; got 'db1'");
    }

    @Test
    void recipientsMustBeAList() {
      assertThat(error("email:\n  to: ops@example.com\n"))
          .isEqualTo("conf.yaml:2: 'email.to' must be a list like [a, b], got 'ops@example.com'");
    }

    @Test
    void passwordHashMustBeHexAndIsNotEchoed() {
      assertThat(error("queue:\n  adminPasswordHash: letmein\n"))
          .isEqualTo(
              "conf.yaml:2: 'queue.adminPasswordHash' must be empty or 64 hex digits, got '*****'");
    }

    @Test
    void bodyLimitMustBeBelowFrameLimit() {
      assertThat(error("queue:\n  maxBodyBytes: 20000000\n"))
          .isEqualTo(
              "conf.yaml:2: 'queue.maxBodyBytes' (20000000) must be less than 'queue.maxFrameBytes'"
                  + " (16777216)");
    }

    @Test
    void enabledEmailNeedsServerSenderAndRecipients() {
      assertThat(error("email:\n  enabled: true\n  smtpHost: mail\n"))
          .isEqualTo("conf.yaml:2: 'email.enabled' is true, so 'email.from' must be set too");
      assertThat(error("email:\n  security: ssl\n"))
          .isEqualTo("conf.yaml:2: 'email.security' must be one of NONE, STARTTLS, TLS, got 'ssl'");
      assertThat(error("ui:\n  baseUrl: flipper.example.com\n"))
          .startsWith("conf.yaml:2: 'ui.baseUrl' must be empty or an http:// or https:// URL");
    }

    @Test
    void fileThatIsNotAMap() {
      assertThat(error("- queue\n- master\n"))
          .isEqualTo(
              "conf.yaml:1: the file must be a map of sections (storage, network, security, queue, master, scheduler, workers,"
                  + " ui, email, logging), got a list");
    }

    @Test
    void everyProblemIsReportedInFileOrder() {
      String yaml = "queue:\n  port: x\n  prot: 1\nui:\n  adminPort: -1\n";

      assertThat(error(yaml, "master.port=y"))
          .isEqualTo(
              """
              conf.yaml:2: 'queue.port' must be an integer, got 'x'
              conf.yaml:3: unknown key 'queue.prot' (did you mean 'queue.port'?)
              conf.yaml:5: 'ui.adminPort' must be between 0 and 65535, got -1
              --set master.port=y: 'master.port' must be an integer, got 'y'""");
    }

    @Test
    void missingFile(@TempDir Path dir) {
      Path missing = dir.resolve("nope.yaml");

      assertThatThrownBy(() -> ConfigLoader.load(missing, List.of(), Map.of()))
          .isInstanceOf(ConfigException.class)
          .hasMessageStartingWith(
              missing + ": cannot read the config file: no such file (working directory ");
    }

    @Test
    void directoryInsteadOfAFile(@TempDir Path dir) {
      assertThatThrownBy(() -> ConfigLoader.load(dir, List.of(), Map.of()))
          .hasMessage(dir + ": cannot read the config file: it is a directory");
    }
  }
}
