package dev.flipper.queue.mysql;

import java.util.UUID;
import org.junit.jupiter.api.Tag;

/**
 * {@link PoolSaturationTest} on H2 in MySQL mode. In memory: file databases wait at least 30 s for
 * a connection (opening a file can take that long), which would make each busy call of this test
 * last 30 s; the classification of a pool time-out does not depend on where H2 keeps its data.
 */
@Tag("slow")
class H2PoolSaturationTest extends PoolSaturationTest {
  @Override
  JdbcShardConfig newShard() {
    String name = "flipper_busy_" + UUID.randomUUID().toString().replace("-", "");
    return new JdbcShardConfig("1", "jdbc:h2:mem:" + name + ";MODE=MySQL", "sa", "", false);
  }
}
