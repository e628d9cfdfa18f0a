package dev.flipper.config;

import dev.flipper.queue.mysql.JdbcShardConfig;
import dev.flipper.queue.redis.RedisShardConfig;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The effective configuration of some daemons in one short line, for the start-up log and {@code
 * config-check}: what an operator looks for first (ports, store and shards, master address, slots),
 * never a secret. The whole configuration is {@link ConfigValues#toYaml}. Stateless.
 *
 * <pre>{@code
 * queue: port 9010, admin 9999, store jdbc 2 shards (1=db1:3306/flipper, 2=db2/flipper), pool 10; master: ...
 * }</pre>
 */
public final class ConfigSummary {
  private ConfigSummary() {}

  /**
   * The summary of the daemons configured in {@code sections} (queue, master, scheduler, workers,
   * ui).
   */
  public static String of(FlipperConfig config, List<String> sections) {
    List<String> parts = new ArrayList<>();
    for (String section : sections) {
      parts.add(
          section
              + ": "
              + switch (section) {
                case "queue" ->
                    "port "
                        + config.queue().port()
                        + ", admin "
                        + admin(config, section)
                        + ", "
                        + store(config);
                case "master" ->
                    "port "
                        + config.master().port()
                        + ", admin "
                        + admin(config, section)
                        + ", tokens in "
                        + tokenDatabase(config);
                case "scheduler" ->
                    "admin "
                        + admin(config, section)
                        + ", master "
                        + config.scheduler().masterHost()
                        + ":"
                        + config.master().port()
                        + ", "
                        + plural(config.scheduler().count(), "loop");
                case "workers" ->
                    "admin "
                        + admin(config, section)
                        + ", master "
                        + config.workers().masterHost()
                        + ":"
                        + config.master().port()
                        + ", "
                        + plural(config.workers().count(), "slot")
                        + ", logs "
                        + config.workers().logDir();
                case "ui" ->
                    "port "
                        + config.ui().port()
                        + ", admin "
                        + admin(config, section)
                        + ", master "
                        + config.ui().masterHost()
                        + ":"
                        + config.master().port();
                default ->
                    throw new IllegalArgumentException("no daemon section '" + section + "'");
              });
    }
    Set<String> addresses = new LinkedHashSet<>();
    sections.forEach(s -> addresses.add(config.admin(s).bindAddress()));
    String on =
        addresses.size() == 1
            ? "on " + addresses.iterator().next()
            : sections.stream()
                .map(s -> s + " on " + config.admin(s).bindAddress())
                .collect(Collectors.joining(", "));
    if (config.email().enabled()
        && (sections.contains("scheduler") || sections.contains("workers"))) {
      on += ", e-mail via " + config.email().smtpHost() + ":" + config.email().smtpPort();
    }
    return String.join("; ", parts) + " (" + on + ")";
  }

  private static String admin(FlipperConfig config, String section) {
    return Integer.toString(config.admin(section).adminPort());
  }

  private static String store(FlipperConfig config) {
    StorageConfig storage = config.storage();
    List<String> shards = new ArrayList<>();
    if (storage.backend() == StorageBackend.REDIS) {
      for (RedisShardConfig shard : storage.redis().shards()) {
        shards.add(
            shard.name()
                + "="
                + shard.host()
                + ":"
                + shard.port()
                + "/"
                + shard.database()
                + (shard.dequeueOnly() ? " dequeue-only" : ""));
      }
      return "store redis "
          + plural(shards.size(), "shard")
          + " ("
          + String.join(", ", shards)
          + "), key prefix "
          + storage.redis().keyPrefix();
    }
    for (JdbcShardConfig shard : storage.jdbc().shards()) {
      shards.add(
          shard.name()
              + "="
              + database(shard.url())
              + (shard.dequeueOnly() ? " dequeue-only" : ""));
    }
    return "store jdbc "
        + plural(shards.size(), "shard")
        + " ("
        + String.join(", ", shards)
        + "), pool "
        + storage.jdbc().poolSize();
  }

  private static String tokenDatabase(FlipperConfig config) {
    String url = config.masterStore().jdbcUrl();
    if (url.isEmpty()) {
      url = config.storage().jdbc().shards().get(0).url();
    }
    return database(url);
  }

  /**
   * Where a JDBC URL points, without driver prefix, credentials or parameters: {@code
   * db1:3306/flipper}, {@code h2 ./data/flipper}.
   */
  static String database(String url) {
    String lower = url.toLowerCase(Locale.ROOT);
    if (lower.startsWith("jdbc:h2:")) {
      String rest = url.substring("jdbc:h2:".length());
      rest =
          rest.toLowerCase(Locale.ROOT).startsWith("file:")
              ? rest.substring("file:".length())
              : rest;
      int semicolon = rest.indexOf(';');
      return "h2 " + (semicolon < 0 ? rest : rest.substring(0, semicolon));
    }
    int slashes = url.indexOf("//");
    String rest = slashes < 0 ? url : url.substring(slashes + 2);
    int query = rest.indexOf('?');
    rest = query < 0 ? rest : rest.substring(0, query);
    int at = rest.lastIndexOf('@', rest.indexOf('/') < 0 ? rest.length() : rest.indexOf('/'));
    return at < 0 ? rest : rest.substring(at + 1); // user:password@ never reaches the log
  }

  private static String plural(int count, String noun) {
    return count + " " + noun + (count == 1 ? "" : "s");
  }
}
