package dev.flipper.config;

import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.config.SettingType.ObjectListType;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.memory.InMemoryQueueStore;
import dev.flipper.queue.monitor.QueueMonitor;
import dev.flipper.queue.mysql.JdbcQueueStore;
import dev.flipper.queue.mysql.JdbcShardConfig;
import dev.flipper.queue.redis.RedisQueueStore;
import dev.flipper.queue.redis.RedisShardConfig;
import dev.flipper.queue.server.QueueServer;
import dev.flipper.text.DurationText;
import dev.flipper.token.TokenMaster;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.mail.MailSettings;
import dev.flipper.workflow.mail.UiLinks;
import dev.flipper.workflow.master.MasterDaemon;
import dev.flipper.workflow.master.server.TokenMasterServer;
import dev.flipper.workflow.scheduler.SchedulerDaemon;
import dev.flipper.workflow.ui.UiAuth;
import dev.flipper.workflow.ui.UiDaemon;
import dev.flipper.workflow.ui.queue.QueueServers;
import dev.flipper.workflow.worker.WorkerDaemon;
import java.lang.reflect.Field;
import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The modules' own defaults agree with {@link ConfigSchema}'s, key by key: each module's settings
 * are built with nothing set (a fresh builder, or the settings type's {@code defaults()}) and every
 * field is compared with what the schema binds from an empty config file. The schema takes these
 * defaults from the modules' constants, so they agree unless a builder stops using its constant,
 * the schema writes a value of its own instead of the constant, or the value does not survive being
 * written as YAML and read back; each fails here naming the key.
 *
 * <p>Every key with a default is either checked here or listed in {@link #LAUNCHER_ONLY} (a default
 * no module has, so the schema is its only home), so a new key cannot be forgotten.
 */
class DefaultsAgreementTest {

  /** Keys whose default only the launcher has: the schema writes it, no module repeats it. */
  private static final Map<String, String> LAUNCHER_ONLY =
      Map.ofEntries(
          entry("storage.backend", "the launcher opens the store"),
          entry(
              "storage.jdbc.shards",
              "the store has no default shards; the launcher's is an H2 file under ./data"),
          entry("storage.redis.shards", "the store has no default shards"),
          entry(
              "network.bindAddress",
              "the launcher's shared address; each daemon's own bindAddress is checked"),
          entry("security.tls", "the launcher hands each daemon its TLS identity"),
          entry("security.certificates", "the launcher loads the certificates"),
          entry("security.identity", "the launcher's commands"),
          entry("security.insecure", "the launcher checks where daemons listen"),
          entry("queue.adminPort", "the launcher's admin server"),
          entry("master.adminPort", "the launcher's admin server"),
          entry("master.jdbcUrl", "the launcher opens the master's token store"),
          entry("master.jdbcUser", "the launcher opens the master's token store"),
          entry("master.jdbcPassword", "the launcher opens the master's token store"),
          entry(
              "scheduler.bindAddress", "only the launcher's admin server of the scheduler listens"),
          entry("scheduler.adminPort", "the launcher's admin server"),
          entry("workers.bindAddress", "only the launcher's admin server of the workers listens"),
          entry("workers.adminPort", "the launcher's admin server"),
          entry("ui.adminPort", "the launcher's admin server"),
          entry("logging.level", "the launcher sets up logging"),
          entry("logging.file", "the launcher sets up logging"));

  private static final String BCRYPT = "$2a$10$" + "a".repeat(53);

  /** One default: the key, what the schema binds, what the module has and where. */
  private record Check(String key, Object schema, Object module, String source) {}

  /** A builder's field and how its value reads as a config value. */
  private record BuilderField(String key, String field, UnaryOperator<Object> asConfig) {
    BuilderField(String key, String field) {
      this(key, field, UnaryOperator.identity());
    }
  }

  private static InMemoryQueueStore store;
  private static List<Check> checks;

  @BeforeAll
  static void buildEveryModulesDefaults() {
    ConfigValues empty = ConfigLoader.defaults(List.of(), Map.of()).values();
    store = InMemoryQueueStore.withShards("1");
    TokenMaster tokens = TokenService.builder(InMemoryTokenStore.create()).build();
    checks = new ArrayList<>();

    // storage
    builder(empty, JdbcQueueStore.builder(), new BuilderField("storage.jdbc.poolSize", "poolSize"));
    item(
        "storage.jdbc.shards",
        "[{name: a, url: \"jdbc:h2:mem:a\"}]",
        JdbcShardConfig.of("a", "jdbc:h2:mem:a"),
        "JdbcShardConfig.of(name, url)");
    builder(
        empty, RedisQueueStore.builder(), new BuilderField("storage.redis.keyPrefix", "keyPrefix"));
    item(
        "storage.redis.shards",
        "[{name: a, host: h}]",
        RedisShardConfig.of("a", "h"),
        "RedisShardConfig.of(name, host)");

    // queue: the service, its monitor and its server
    builder(
        empty,
        QueueService.builder(store),
        new BuilderField("queue.priorityLevels", "priorityLevels"),
        new BuilderField("queue.maxBodyBytes", "maxBodyBytes"),
        new BuilderField("queue.adminPasswordHash", "adminPasswordHash"),
        new BuilderField("queue.bodyFilterStepsPerBody", "bodyFilterStepsPerBody"),
        new BuilderField("queue.bodyFilterTimePerCall", "bodyFilterTimePerCall"));
    builder(
        empty,
        QueueMonitor.builder(store),
        new BuilderField("queue.claimTimeout", "claimTimeout"),
        new BuilderField("queue.succeededTtl", "succeededTtl"),
        new BuilderField("queue.failedTtl", "failedTtl"),
        new BuilderField("queue.monitorInterval", "interval"),
        new BuilderField("queue.monitorBatchSize", "batchSize"));
    UnaryOperator<Object> noFileIsEmpty = path -> path == null ? "" : path.toString();
    builder(
        empty,
        QueueServer.builder(QueueService.builder(store).build()),
        new BuilderField("queue.bindAddress", "bindHost"),
        new BuilderField("queue.port", "port"),
        new BuilderField("queue.maxFrameBytes", "maxFrameBytes"),
        new BuilderField("queue.rateLimitFile", "rateLimitFile", noFileIsEmpty),
        new BuilderField("queue.serverSetFile", "serverSetFile", noFileIsEmpty),
        new BuilderField("queue.longPollTimeout", "longPollTimeout"),
        new BuilderField(
            "queue.directCallLimitMicros",
            "directCallLimit",
            limit -> ((Duration) limit).toNanos() / 1_000),
        new BuilderField("queue.idleTimeout", "idleTimeout"),
        new BuilderField("queue.frameReadTimeout", "frameReadTimeout"),
        new BuilderField("queue.maxConnections", "maxConnections"),
        new BuilderField("queue.maxConnectionsPerPeer", "maxConnectionsPerPeer"),
        new BuilderField("queue.maxConcurrentBodyFilters", "maxConcurrentBodyFilters"));

    // master: its settings and the Thrift server they configure
    settings(empty, "master", MasterDaemon.Config.defaults(), "MasterDaemon.Config.defaults()");
    builder(
        empty,
        TokenMasterServer.builder(tokens),
        new BuilderField("master.bindAddress", "bindHost"),
        new BuilderField("master.port", "port"),
        new BuilderField("master.idleTimeout", "idleTimeout"),
        new BuilderField("master.messageReadTimeout", "messageReadTimeout"),
        new BuilderField("master.maxConnections", "maxConnections"),
        new BuilderField("master.maxConnectionsPerPeer", "maxConnectionsPerPeer"));

    settings(
        empty, "scheduler", SchedulerDaemon.Config.defaults(), "SchedulerDaemon.Config.defaults()");

    // workers: their settings and the engine that archives
    settings(empty, "workers", WorkerDaemon.Config.defaults(), "WorkerDaemon.Config.defaults()");
    builder(
        empty,
        WorkflowEngine.builder(tokens),
        new BuilderField("workers.archiveDelay", "archiveDelay"));

    // ui: the daemon, sign-in, the queue dashboard and the links in e-mail
    settings(empty, "ui", UiDaemon.Config.defaults(), "UiDaemon.Config.defaults()");
    settings(empty, "ui", UiAuth.NONE, "UiAuth.NONE");
    item(
        "ui.users",
        "[{name: a, passwordHash: \"" + BCRYPT + "\"}]",
        new UiAuth.User("a", BCRYPT),
        "new UiAuth.User(name, passwordHash)");
    settings(empty, "ui", QueueServers.NONE, "QueueServers.NONE");
    settings(empty, "ui", UiLinks.NONE, "UiLinks.NONE");

    settings(empty, "email", MailSettings.disabled(), "MailSettings.disabled()");
  }

  @AfterAll
  static void closeStore() throws Exception {
    store.close();
  }

  @Test
  void everyModuleDefaultAgreesWithTheSchema() {
    List<String> disagreements = new ArrayList<>();
    for (Check check : checks) {
      if (!Objects.equals(normal(check.schema()), normal(check.module()))) {
        disagreements.add(
            check.key()
                + ": ConfigSchema (docs/configuration.md) binds "
                + show(check.schema())
                + " from an empty config, but "
                + check.source()
                + " has "
                + show(check.module()));
      }
    }
    assertThat(disagreements)
        .as("defaults on which a module and the config schema disagree")
        .isEmpty();
  }

  @Test
  void everyKeyWithADefaultIsCheckedOrTheLaunchersOwn() {
    Set<String> withDefault = new TreeSet<>();
    for (Setting setting : ConfigSchema.SETTINGS) {
      if (!setting.required()) {
        withDefault.add(setting.key());
      }
      if (setting.type() instanceof ObjectListType list) {
        list.items().stream()
            .filter(item -> !item.required())
            .forEach(item -> withDefault.add(setting.key() + "[]." + item.key()));
      }
    }
    Set<String> checked = new TreeSet<>();
    checks.forEach(check -> checked.add(check.key()));

    Set<String> forgotten = new TreeSet<>(withDefault);
    forgotten.removeAll(checked);
    forgotten.removeAll(LAUNCHER_ONLY.keySet());
    assertThat(forgotten)
        .as(
            "keys with a default that no module check covers: check them here against the module that has the "
                + "default, or list them in LAUNCHER_ONLY when only the launcher has one")
        .isEmpty();
    assertThat(LAUNCHER_ONLY.keySet())
        .as("LAUNCHER_ONLY keys that the schema does not have")
        .allMatch(withDefault::contains);
    assertThat(LAUNCHER_ONLY.keySet())
        .as("LAUNCHER_ONLY keys that a module has a default for after all")
        .noneMatch(checked::contains);
  }

  /** The fields of a fresh builder, that is the defaults it builds with. */
  private static void builder(ConfigValues empty, Object builder, BuilderField... fields) {
    String source = builder.getClass().getName().replaceAll(".*\\.", "").replace('$', '.');
    for (BuilderField field : fields) {
      Object value = field.asConfig().apply(read(builder, field.field()));
      checks.add(
          new Check(field.key(), schema(empty, field.key()), value, source + "." + field.field()));
    }
  }

  /**
   * Each component of a settings record bound at {@code prefix}: component {@code port} is key
   * prefix.port.
   */
  private static void settings(ConfigValues empty, String prefix, Record defaults, String source) {
    for (RecordComponent component : defaults.getClass().getRecordComponents()) {
      String key = prefix + "." + component.getName();
      checks.add(
          new Check(
              key,
              schema(empty, key),
              component(defaults, component),
              source + "." + component.getName()));
    }
  }

  /** An item of a list of maps with only its required keys: its other keys take the defaults. */
  private static void item(
      String key, String yamlWithRequiredKeysOnly, Record moduleItem, String source) {
    ConfigValues values =
        ConfigLoader.defaults(List.of(key + "=" + yamlWithRequiredKeysOnly), Map.of()).values();
    ConfigValues item = values.items(key).get(0);
    for (RecordComponent component : moduleItem.getClass().getRecordComponents()) {
      checks.add(
          new Check(
              key + "[]." + component.getName(),
              item.value(component.getName()).value(),
              component(moduleItem, component),
              source + "." + component.getName()));
    }
  }

  private static Object schema(ConfigValues empty, String key) {
    return ConfigSchema.find(key).isPresent()
        ? empty.value(key).value()
        : "(no such key in ConfigSchema)";
  }

  private static Object read(Object builder, String name) {
    try {
      Field field = builder.getClass().getDeclaredField(name);
      field.setAccessible(true);
      return field.get(builder);
    } catch (NoSuchFieldException e) {
      throw new AssertionError(
          builder.getClass().getName()
              + " has no field '"
              + name
              + "' any more; say in "
              + "DefaultsAgreementTest which field holds that setting now",
          e);
    } catch (IllegalAccessException e) {
      throw new AssertionError(e);
    }
  }

  private static Object component(Record record, RecordComponent component) {
    try {
      return component.getAccessor().invoke(record);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  /** Values as the config has them: whole numbers as long, enums by name, paths as text. */
  private static Object normal(Object value) {
    if (value instanceof Integer || value instanceof Long) {
      return ((Number) value).longValue();
    }
    if (value instanceof Enum<?> constant) {
      return constant.name();
    }
    if (value instanceof Path path) {
      return path.toString();
    }
    return value;
  }

  private static String show(Object value) {
    if (value instanceof Duration duration) {
      return DurationText.format(duration);
    }
    if (value instanceof String text) {
      return "\"" + text + "\"";
    }
    return String.valueOf(value);
  }
}
