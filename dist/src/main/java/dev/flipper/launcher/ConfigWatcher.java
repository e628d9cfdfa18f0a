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
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-reads the config file when its content changes and hands the new config to the running
 * daemons, so shards can be added or made dequeue-only without a restart. Every change is reported
 * in one log line naming the keys applied at once and, as a warning, those that wait for a restart
 * (every other key: the daemons read them only at start). A file that no longer validates is
 * reported in one log line and the running config stays. Polls on one daemon thread; {@link
 * #close()} stops it.
 */
final class ConfigWatcher implements AutoCloseable {
  static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(10);

  private static final Logger log = LoggerFactory.getLogger(ConfigWatcher.class);

  private final Path file;
  private final List<String> overrides;
  private final Map<String, String> env;
  private final Consumer<FlipperConfig> apply;
  private final FlipperConfig started;
  private final Set<String> liveKeys;
  private final ScheduledExecutorService timer;
  private byte[] lastDigest;
  private FlipperConfig current;

  /**
   * @param started the config the daemons started with
   * @param liveKeys the keys the running daemons apply without a restart (see {@link
   *     Mode#liveKeys()})
   */
  ConfigWatcher(
      Path file,
      List<String> overrides,
      Map<String, String> env,
      FlipperConfig started,
      Set<String> liveKeys,
      Consumer<FlipperConfig> apply) {
    this.file = file;
    this.overrides = List.copyOf(overrides);
    this.env = Map.copyOf(env);
    this.apply = apply;
    this.started = started;
    this.current = started;
    this.liveKeys = Set.copyOf(liveKeys);
    this.lastDigest = digest();
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            new NamedThreadFactory("flipper-config-watcher"));
  }

  void start(Duration interval) {
    timer.scheduleWithFixedDelay(
        this::checkOnce, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Reloads if the content changed since the last look; returns true if a new config was applied.
   */
  boolean checkOnce() {
    byte[] now = digest();
    if (now == null || Arrays.equals(now, lastDigest)) {
      return false;
    }
    lastDigest = now;
    try {
      FlipperConfig config = ConfigLoader.load(file, overrides, env);
      Change change = Change.of(started, current, config, liveKeys);
      if (change.needRestart().isEmpty()) {
        log.info("{}", change.describe(file));
      } else {
        log.warn("{}", change.describe(file));
      }
      current = config;
      apply.accept(config);
      return true;
    } catch (ConfigException e) {
      log.warn(
          "config file {} changed but is not valid, keeping the running config: {}",
          file,
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

  /**
   * What a reload means: {@code applied}, the live keys changed since the last reload; {@code
   * needRestart}, the other keys that differ from the config the daemons started with (still listed
   * at later reloads, until a restart or until they are changed back).
   */
  record Change(List<String> applied, List<String> needRestart) {
    static Change of(
        FlipperConfig started, FlipperConfig current, FlipperConfig next, Set<String> liveKeys) {
      // A changed backend is a different store: its shards wait for the restart too. The shards of
      // the backend
      // not in use change nothing now, and wait for a restart that switches to it.
      boolean sameBackend = started.storage().backend() == next.storage().backend();
      String inUse =
          "storage." + next.storage().backend().name().toLowerCase(java.util.Locale.ROOT) + ".";
      java.util.function.Predicate<String> live =
          key -> sameBackend && liveKeys.contains(key) && key.startsWith(inUse);
      List<String> applied =
          current.values().changedKeys(next.values()).stream().filter(live).toList();
      List<String> needRestart =
          started.values().changedKeys(next.values()).stream().filter(live.negate()).toList();
      return new Change(applied, needRestart);
    }

    /** The one log line. */
    String describe(Path file) {
      String what =
          applied.isEmpty() ? "nothing to apply now" : "applied " + String.join(", ", applied);
      if (needRestart.isEmpty()) {
        return "config file " + file + " changed: " + what;
      }
      return "config file "
          + file
          + " changed: "
          + what
          + "; "
          + String.join(", ", needRestart)
          + (needRestart.size() == 1 ? " takes" : " take")
          + " effect only after a restart (the running daemons "
          + "keep the values they started with)";
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
    try {
      timer.awaitTermination(
          5, TimeUnit.SECONDS); // a reload in progress finishes before the daemons stop
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
