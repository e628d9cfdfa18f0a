package dev.flipper.queue.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16 item 10: a shard that can never be opened fails the store's start with the driver's
 * reason; a shard that is only down for now does not (it is set up when first reached).
 */
class PermanentOpenFailureTest {
  @TempDir Path dir;

  @Test
  void anH2UrlWithAnUnsupportedSettingFailsTheStart() {
    String url =
        "jdbc:h2:file:" + dir.resolve("shard").toAbsolutePath() + ";MODE=MySQL;NO_SUCH_SETTING=1";

    assertThatThrownBy(() -> build(new JdbcShardConfig("1", url, "", "", false)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("shard '1'")
        .hasMessageContaining("NO_SUCH_SETTING")
        .hasMessageContaining("retrying will not help");
  }

  @Test
  @Tag("mariadb")
  void aMariaDbUserThatIsRefusedFailsTheStart() {
    String url =
        TestDatabases.MARIADB_HOST + "flipper_t_refused"; // never created: the login fails first

    assertThatThrownBy(
            () -> build(new JdbcShardConfig("1", url, "flipper_t_nobody", "wrong", false)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("shard '1'")
        .hasMessageContaining("Access denied");
  }

  @Test
  @Tag("slow")
  void aShardThatIsDownForNowStillStartsAndReportsUnhealthy() {
    try (JdbcQueueStore store =
        build(TestDatabases.mariaDbShard("1", TestDatabases.unreachableMysqlUrl()))) {
      assertThat(store.shards())
          .singleElement()
          .satisfies(shard -> assertThat(shard.healthy()).isFalse());
    }
  }

  private static JdbcQueueStore build(JdbcShardConfig shard) {
    return JdbcQueueStore.builder().shards(List.of(shard)).poolSize(2).build();
  }
}
