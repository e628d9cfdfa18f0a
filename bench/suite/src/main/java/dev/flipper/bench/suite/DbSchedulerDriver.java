package dev.flipper.bench.suite;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.jdbc.JdbcCustomization;
import com.github.kagkarlsson.scheduler.jdbc.MySQL8JdbcCustomization;
import com.github.kagkarlsson.scheduler.task.TaskDescriptor;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * db-scheduler on the shared MariaDB: one-time tasks whose data is the job body (db-scheduler's default Java
 * serialization of the byte[], the cheapest of its bundled serializers: no text encoding), scheduled with a
 * {@link SchedulerClient} and run by a {@link Scheduler} set up for throughput as db-scheduler's README advises.
 */
public final class DbSchedulerDriver implements Driver {
  private static final TaskDescriptor<byte[]> JOB = TaskDescriptor.of("bench-job", byte[].class);

  // db-scheduler's MySQL/MariaDB table (its mysql_tables.sql, the same as mariadb_tables.sql), priority included
  private static final String TABLE = """
      CREATE TABLE scheduled_tasks (
        task_name varchar(100) not null,
        task_instance varchar(100) not null,
        task_data blob,
        execution_time timestamp(6) not null,
        picked BOOLEAN not null,
        picked_by varchar(50),
        last_success timestamp(6) null,
        last_failure timestamp(6) null,
        consecutive_failures INT,
        last_heartbeat timestamp(6) null,
        version BIGINT not null,
        priority SMALLINT,
        PRIMARY KEY (task_name, task_instance),
        INDEX execution_time_idx (execution_time),
        INDEX last_heartbeat_idx (last_heartbeat),
        INDEX priority_execution_time_idx (priority desc, execution_time asc)
      )""";

  // Between polls when the last fetch found no full batch; a full batch is followed by the next fetch at once.
  private static final Duration POLLING_INTERVAL = Duration.ofMillis(100);

  // The README's lock-and-fetch setting "for high throughput (i.e. keep threads busy)": fetch again when the
  // queued executions fall to 1.0 x threads, up to 4.0 x threads picked at once.
  private static final double LOWER_LIMIT_FRACTION_OF_THREADS = 1.0;
  private static final double UPPER_LIMIT_FRACTION_OF_THREADS = 4.0;

  private final BenchDatabase database;
  // mysql-connector-j reports MariaDB 10.11 as MySQL 5.5.5, for which db-scheduler autodetects a customization
  // without lock-and-fetch (its MariaDB one has none either); the MySQL 8 one selects FOR UPDATE SKIP LOCKED,
  // which MariaDB runs since 10.6. Timestamps in UTC, as db-scheduler advises for zoneless columns.
  private final JdbcCustomization jdbc = new MySQL8JdbcCustomization(true);
  private final SchedulerClient plainClient;
  // The running Scheduler while a worker runs, so that its immediate execution sees the jobs enqueued meanwhile
  // (it only hears of jobs scheduled through itself); the plain client otherwise.
  private volatile SchedulerClient client;
  private final AtomicLong ids = new AtomicLong();

  public DbSchedulerDriver(Options options) throws Exception {
    database = new BenchDatabase(options, "bench_dbs_");
    try {
      database.execute(TABLE);
    } catch (Exception e) {
      database.close();
      throw e;
    }
    plainClient = SchedulerClient.Builder.create(database.dataSource()).jdbcCustomization(jdbc).build();
    client = plainClient;
  }

  @Override
  public void enqueue(byte[] body) {
    client.scheduleIfNotExists(instance(body), Instant.now());
  }

  @Override
  public void enqueueBatch(List<byte[]> bodies) {
    List<TaskInstance<?>> instances = new ArrayList<>(bodies.size());
    for (byte[] body : bodies) {
      instances.add(instance(body));
    }
    client.scheduleBatch(instances, Instant.now());
  }

  @Override
  public Consumers consume(int inflight, Consumer<byte[]> handler) {
    OneTimeTask<byte[]> task = Tasks.oneTime(JOB).execute((instance, context) -> handler.accept(instance.getData()));
    Scheduler scheduler = Scheduler.create(database.dataSource(), task)
        .jdbcCustomization(jdbc)
        .threads(inflight)
        .pollUsingLockAndFetch(LOWER_LIMIT_FRACTION_OF_THREADS, UPPER_LIMIT_FRACTION_OF_THREADS)
        .pollingInterval(POLLING_INTERVAL)
        .enableImmediateExecution()
        .build();
    scheduler.start();
    client = scheduler;
    return () -> {
      client = plainClient;
      scheduler.stop();
    };
  }

  @Override
  public void clear() throws Exception {
    database.execute("DELETE FROM scheduled_tasks");
  }

  @Override
  public void close() throws Exception {
    database.close();
  }

  private TaskInstance<byte[]> instance(byte[] body) {
    return JOB.instance(Long.toString(ids.incrementAndGet())).data(body).build();
  }
}
