package dev.flipper.bench.suite;

import static org.jobrunr.server.BackgroundJobServerConfiguration.usingStandardBackgroundJobServerConfiguration;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.jobrunr.jobs.mappers.JobMapper;
import org.jobrunr.scheduling.JobScheduler;
import org.jobrunr.server.BackgroundJobServer;
import org.jobrunr.server.JobActivator;
import org.jobrunr.storage.StorageProvider;
import org.jobrunr.storage.sql.mariadb.MariaDbStorageProvider;
import org.jobrunr.utils.mapper.JsonMapper;
import org.jobrunr.utils.mapper.jackson.JacksonJsonMapper;

/**
 * JobRunr on the shared MariaDB: its MariaDB storage provider (which creates JobRunr's tables), jobs enqueued
 * with {@link JobScheduler#enqueue} calling {@link JobRunrJobs#run}, run by a {@link BackgroundJobServer}. No
 * dashboard: JobRunr starts one only when asked, so nothing listens on a port.
 */
public final class JobRunrDriver implements Driver {
  // The shortest poll interval JobRunr 8 allows with a SQL store (AbstractStorageProvider.validatePollInterval
  // rejects less than 5 s; its default is 15 s).
  private static final Duration POLL_INTERVAL = Duration.ofSeconds(5);

  // Jobs call a static method: JobRunr asks the activator for no instance.
  private static final JobActivator NO_INSTANCES = new JobActivator() {
    @Override
    public <T> T activateJob(Class<T> type) {
      return null;
    }
  };

  private final BenchDatabase database;
  private final JsonMapper json = new JacksonJsonMapper();
  private final StorageProvider storage;
  private final JobScheduler scheduler;

  public JobRunrDriver(Options options) throws Exception {
    database = new BenchDatabase(options, "bench_jobrunr_");
    try {
      storage = new MariaDbStorageProvider(database.dataSource());
      storage.setJobMapper(new JobMapper(json));
    } catch (RuntimeException e) {
      database.close();
      throw e;
    }
    scheduler = new JobScheduler(storage);
  }

  @Override
  public void enqueue(byte[] body) {
    String encoded = JobRunrJobs.encode(body);
    scheduler.enqueue(() -> JobRunrJobs.run(encoded));
  }

  @Override
  public void enqueueBatch(List<byte[]> bodies) {
    scheduler.enqueue(bodies.stream().map(JobRunrJobs::encode), encoded -> JobRunrJobs.run(encoded));
  }

  @Override
  public Consumers consume(int inflight, Consumer<byte[]> handler) {
    JobRunrJobs.handleWith(handler);
    BackgroundJobServer server = new BackgroundJobServer(storage, json, NO_INSTANCES,
        usingStandardBackgroundJobServerConfiguration().andWorkerCount(inflight).andPollInterval(POLL_INTERVAL));
    server.start();
    return () -> {
      server.stop();
      JobRunrJobs.handleWith(null);
    };
  }

  @Override
  public void clear() throws Exception {
    database.execute("DELETE FROM jobrunr_jobs");
  }

  @Override
  public void close() throws Exception {
    storage.close();
    database.close();
  }
}
