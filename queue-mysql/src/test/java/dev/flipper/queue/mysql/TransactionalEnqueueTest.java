package dev.flipper.queue.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flipper.queue.CountParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobState;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.QueueException;
import dev.flipper.queue.QueueService;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Transactional enqueue: an application writes its own row and enqueues a job with one connection
 * in one transaction; the job exists if and only if that transaction commits. On H2 and MariaDB.
 */
class TransactionalEnqueueTest {
  private final TestDatabases databases = new TestDatabases();

  @TempDir Path dir;

  private JdbcQueueStore store;

  @AfterEach
  void close() {
    if (store != null) {
      store.close();
    }
    databases.close();
  }

  /** The application's database, which is also the queue's only shard. */
  private String url(String backend) {
    return backend.equals("h2") ? TestDatabases.h2Url(dir, "app") : databases.newMariaDb();
  }

  private QueueService serviceOver(String url) throws SQLException {
    store =
        JdbcQueueStore.builder()
            .shards(List.of(new JdbcShardConfig("1", url, "root", "", false)))
            .build();
    QueueService service = QueueService.builder(store).build();
    service.createQueue("mail");
    try (Connection c = connect(url);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE orders (id INT PRIMARY KEY, item VARCHAR(100))");
    }
    return service;
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"h2", "mariadb"})
  @Tag("mariadb")
  void committedJobsExistWithTheApplicationsRow(String backend) throws Exception {
    String url = url(backend);
    QueueService service = serviceOver(url);
    TransactionalEnqueue jobs = TransactionalEnqueue.of(service);

    List<JobDescriptor> enqueued;
    try (Connection c = connect(url)) {
      c.setAutoCommit(false);
      insertOrder(c, 1);
      enqueued = jobs.enqueue(c, "mail", List.of(NewJob.of("confirm order 1").withPriority(2)));
      assertThat(pending(service)).as("not visible before the commit").isZero();
      c.commit();
    }

    assertThat(orders(url)).isEqualTo(1);
    assertThat(enqueued).hasSize(1);
    assertThat(enqueued.get(0).shard()).isEqualTo("1");
    assertThat(enqueued.get(0).priority()).isEqualTo(2);
    List<DequeuedJob> dequeued =
        service.dequeue(dev.flipper.queue.DequeueParams.of("mail", 10, "test"));
    assertThat(dequeued).extracting(DequeuedJob::descriptor).containsExactlyElementsOf(enqueued);
    assertThat(new String(dequeued.get(0).body(), StandardCharsets.UTF_8))
        .isEqualTo("confirm order 1");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"h2", "mariadb"})
  @Tag("mariadb")
  void rolledBackJobsNeverExist(String backend) throws Exception {
    String url = url(backend);
    QueueService service = serviceOver(url);
    TransactionalEnqueue jobs = TransactionalEnqueue.of(service);

    JobDescriptor job;
    try (Connection c = connect(url)) {
      c.setAutoCommit(false);
      insertOrder(c, 2);
      job =
          jobs.enqueue(c, "mail", List.of(NewJob.of("confirm order 2"), NewJob.of("bill order 2")))
              .get(0);
      c.rollback();
    }

    assertThat(orders(url)).isZero();
    assertThat(pending(service)).isZero();
    assertThat(service.lookup(List.of(job), false)).isEmpty();
    assertThat(service.dequeue(dev.flipper.queue.DequeueParams.of("mail", 10, "test"))).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"h2", "mariadb"})
  @Tag("mariadb")
  void anUnknownQueueOrAnAutoCommitConnectionIsRefusedAndTheTransactionCanGoOn(String backend)
      throws Exception {
    String url = url(backend);
    QueueService service = serviceOver(url);
    TransactionalEnqueue jobs = TransactionalEnqueue.of(service);

    try (Connection c = connect(url)) {
      assertThatThrownBy(() -> jobs.enqueue(c, "mail", List.of(NewJob.of("x"))))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("setAutoCommit(false)");
      c.setAutoCommit(false);
      insertOrder(c, 3);
      assertThatThrownBy(() -> jobs.enqueue(c, "no_such_queue", List.of(NewJob.of("x"))))
          .isInstanceOfSatisfying(
              QueueException.class,
              e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.QUEUE_NOT_FOUND));
      assertThatThrownBy(() -> jobs.enqueue(c, "mail", List.of(NewJob.of("x").withPriority(9))))
          .isInstanceOfSatisfying(
              QueueException.class,
              e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.PRIORITY_NOT_SUPPORTED));
      c.commit();
    }
    assertThat(orders(url)).isEqualTo(1);
    assertThat(pending(service)).isZero();
  }

  private static Connection connect(String url) throws SQLException {
    return DriverManager.getConnection(url, "root", "");
  }

  private static void insertOrder(Connection c, int id) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("INSERT INTO orders (id, item) VALUES (?, 'book')")) {
      ps.setInt(1, id);
      ps.executeUpdate();
    }
  }

  private static int orders(String url) throws SQLException {
    try (Connection c = connect(url);
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM orders")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private static int pending(QueueService service) {
    return service.count(new CountParams("mail", JobState.PENDING, null, false, null));
  }
}
