package dev.flipper.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.mysql.JdbcShardConfig;
import dev.flipper.queue.redis.RedisShardConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The configs shipped in the distribution's conf/ folder are valid; flipper.yaml is exactly the
 * defaults.
 */
class ShippedConfigTest {
  private static final Path CONF = Path.of("src", "main", "dist", "conf");

  @Test
  void defaultConfigFileEqualsTheBuiltInDefaults() {
    FlipperConfig file = ConfigLoader.load(CONF.resolve("flipper.yaml"), List.of(), Map.of());
    FlipperConfig defaults = ConfigLoader.defaults(List.of(), Map.of());

    assertThat(file.values().toYaml(false)).isEqualTo(defaults.values().toYaml(false));
  }

  @Test
  void mariaDbExampleLoads() {
    FlipperConfig config =
        ConfigLoader.load(
            CONF.resolve("flipper-mariadb.yaml"), List.of(), Map.of("FLIPPER_DB_PASSWORD", "pw"));

    assertThat(config.storage().backend()).isEqualTo(StorageBackend.JDBC);
    assertThat(config.storage().jdbc().shards())
        .extracting(JdbcShardConfig::name)
        .containsExactly("1", "2");
    assertThat(config.storage().jdbc().shards())
        .allSatisfy(
            s -> {
              assertThat(s.url()).startsWith("jdbc:mysql://127.0.0.1:3306/flipper_");
              assertThat(s.password()).isEqualTo("pw");
            });
  }

  @Test
  void redisExampleLoads() {
    FlipperConfig config =
        ConfigLoader.load(CONF.resolve("flipper-redis.yaml"), List.of(), Map.of());

    assertThat(config.storage().backend()).isEqualTo(StorageBackend.REDIS);
    assertThat(config.storage().redis().shards())
        .containsExactly(
            new RedisShardConfig("1", "127.0.0.1", 6379, 0, "", false),
            new RedisShardConfig("2", "127.0.0.1", 6379, 1, "", false));
  }

  @Test
  void launchScriptRunsTheLauncher() throws Exception {
    String script = Files.readString(Path.of("src", "main", "dist", "bin", "flipper"));

    assertThat(script)
        .startsWith("#!/usr/bin/env bash\n")
        .contains("-cp \"$HOME_DIR/lib/*\" dev.flipper.launcher.Launcher \"$@\"");
  }
}
