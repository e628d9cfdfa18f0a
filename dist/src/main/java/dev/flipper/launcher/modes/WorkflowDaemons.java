package dev.flipper.launcher.modes;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.config.FlipperConfig;
import dev.flipper.config.JdbcShard;
import dev.flipper.config.MasterConfig;
import dev.flipper.launcher.Daemon;
import dev.flipper.token.jdbc.JdbcTokenStoreConfig;
import dev.flipper.workflow.master.MasterDaemon;
import dev.flipper.workflow.scheduler.SchedulerDaemon;
import dev.flipper.workflow.ui.UiDaemon;
import dev.flipper.workflow.worker.WorkerDaemon;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/** Builds the workflow daemons (master, scheduler, workers, UI) from the config. Stateless. */
public final class WorkflowDaemons {
  private WorkflowDaemons() {}

  public static Daemon master(FlipperConfig config, MetricRegistry metrics) {
    MasterDaemon daemon = new MasterDaemon(new MasterDaemon.Config(config.master().port(), tokenStore(config)), metrics);
    Daemon adapted = adapt("master", daemon::start, daemon::isReady, daemon::close);
    return new Daemon() {
      @Override
      public void start() throws Exception {
        adapted.start();
      }

      @Override
      public Map<String, Boolean> readiness() {
        return adapted.readiness();
      }

      @Override
      public List<String> endpoints() {
        return daemon.isReady() ? List.of("thrift port " + daemon.port()) : List.of();
      }

      @Override
      public void close() {
        adapted.close();
      }
    };
  }

  /** The master's database: master.jdbcUrl, or else the database of the first JDBC shard. */
  static JdbcTokenStoreConfig tokenStore(FlipperConfig config) {
    MasterConfig master = config.master();
    if (!master.jdbcUrl().isEmpty()) {
      return JdbcTokenStoreConfig.of(master.jdbcUrl(), master.jdbcUser(), master.jdbcPassword());
    }
    JdbcShard first = config.storage().jdbc().shards().get(0);
    return JdbcTokenStoreConfig.of(first.url(), first.user(), first.password());
  }

  public static Daemon scheduler(FlipperConfig config, MetricRegistry metrics) {
    SchedulerDaemon daemon = new SchedulerDaemon(metrics);
    return adapt("scheduler", daemon::start, daemon::isReady, daemon::close);
  }

  public static Daemon workers(FlipperConfig config, MetricRegistry metrics) {
    WorkerDaemon daemon = new WorkerDaemon(new WorkerDaemon.Config(config.workers().count()), metrics);
    return adapt("workers", daemon::start, daemon::isReady, daemon::close);
  }

  public static Daemon ui(FlipperConfig config, MetricRegistry metrics) {
    UiDaemon daemon = new UiDaemon(new UiDaemon.Config(config.ui().port()), metrics);
    return adapt("ui", daemon::start, daemon::isReady, daemon::close);
  }

  private static Daemon adapt(String component, Runnable start, BooleanSupplier ready, Runnable close) {
    return new Daemon() {
      @Override
      public void start() {
        start.run();
      }

      @Override
      public Map<String, Boolean> readiness() {
        return Map.of(component, ready.getAsBoolean());
      }

      @Override
      public void close() {
        close.run();
      }
    };
  }
}
