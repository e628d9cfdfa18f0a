package dev.flipper.launcher;

import dev.flipper.config.ConfigException;
import dev.flipper.config.ConfigLoader;
import dev.flipper.config.FlipperConfig;
import dev.flipper.lifecycle.NamedThreadFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-reads the config file when its content changes and hands the new config to the running daemons, so
 * shards can be added or made dequeue-only without a restart. A file that no longer validates is reported
 * in one log line and the running config stays. Polls on one daemon thread; {@link #close()} stops it.
 */
final class ConfigWatcher implements AutoCloseable {
  static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(10);

  private static final Logger log = LoggerFactory.getLogger(ConfigWatcher.class);

  private final Path file;
  private final List<String> overrides;
  private final Map<String, String> env;
  private final Consumer<FlipperConfig> apply;
  private final ScheduledExecutorService timer;
  private byte[] lastDigest;

  ConfigWatcher(Path file, List<String> overrides, Map<String, String> env, Consumer<FlipperConfig> apply) {
    this.file = file;
    this.overrides = List.copyOf(overrides);
    this.env = Map.copyOf(env);
    this.apply = apply;
    this.lastDigest = digest();
    this.timer = Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory("flipper-config-watcher"));
  }

  void start(Duration interval) {
    timer.scheduleWithFixedDelay(this::checkOnce, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Reloads if the content changed since the last look; returns true if a new config was applied. */
  boolean checkOnce() {
    byte[] now = digest();
    if (now == null || Arrays.equals(now, lastDigest)) {
      return false;
    }
    lastDigest = now;
    try {
      FlipperConfig config = ConfigLoader.load(file, overrides, env);
      log.info("config file {} changed; applying what can change without a restart", file);
      apply.accept(config);
      return true;
    } catch (ConfigException e) {
      log.warn("config file {} changed but is not valid, keeping the running config: {}", file,
          e.getMessage().replace('\n', ' '));
      return false;
    } catch (RuntimeException e) {
      log.warn("applying the changed config file {} failed: {}", file, e.toString());
      return false;
    }
  }

  private byte[] digest() {
    try {
      return MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file));
    } catch (IOException e) {
      log.debug("cannot read config file {} to look for changes: {}", file, e.toString());
      return null;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
    try {
      timer.awaitTermination(5, TimeUnit.SECONDS); // a reload in progress finishes before the daemons stop
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
