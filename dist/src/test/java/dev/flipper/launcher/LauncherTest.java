package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.PasswordHash;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.security.crypto.bcrypt.BCrypt;

/** The command line, in-process, for everything that does not start daemons. */
class LauncherTest {
  @TempDir Path dir;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return Launcher.execute(args, new PrintWriter(out), new PrintWriter(err));
  }

  @Test
  void versionNamesTheBuild() {
    assertThat(run("--version")).isZero();
    assertThat(out.toString()).startsWith("flipper 0.1.0-SNAPSHOT\nJava ");
  }

  @Test
  void helpListsOptionsAndCommands() {
    assertThat(run("--help")).isZero();
    assertThat(out.toString())
        .contains(
            "Usage: flipper",
            "--config=FILE",
            "--mode=MODE[,MODE...]",
            "--set=KEY=VALUE",
            "demo",
            "config-check",
            "hash-password");
  }

  @Test
  void everySubcommandHasHelpAndVersion() {
    for (String command : new String[] {"demo", "config-check", "hash-password"}) {
      assertThat(run(command, "--help")).as(command + " --help").isZero();
      assertThat(run(command, "--version")).as(command + " --version").isZero();
    }
    assertThat(out.toString())
        .contains(
            "Usage: flipper demo", "Usage: flipper config-check", "Usage: flipper hash-password");
  }

  @Test
  void unknownModeListsTheValidOnes() throws Exception {
    assertThat(run("-c", validConfig().toString(), "-m", "queue,scheduler,mastr")).isEqualTo(2);
    assertThat(err.toString())
        .startsWith(
            "flipper: unknown mode 'mastr' (modes: queue, master, scheduler, workers, ui, all)\n");
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void configAndModeAreRequired() throws Exception {
    assertThat(run("-m", "queue")).isEqualTo(2);
    assertThat(err.toString()).startsWith("flipper: missing -c FILE");

    assertThat(run("-c", validConfig().toString())).isEqualTo(2);
    assertThat(err.toString())
        .contains("flipper: missing -m MODE (modes: queue, master, scheduler, workers, ui, all)");
  }

  @Test
  void badConfigPrintsOnlyTheErrorsAndExits2() throws Exception {
    Path config = dir.resolve("conf.yaml");
    Files.writeString(config, "queue:\n  port: x\n  claimTimeout: 5\n");

    assertThat(run("-c", config.toString(), "-m", "queue", "--set", "ui.prt=1")).isEqualTo(2);

    assertThat(err.toString())
        .isEqualTo(
            config
                + ":2: 'queue.port' must be an integer, got 'x'\n"
                + config
                + ":3: 'queue.claimTimeout' must be a duration like 500ms, 30s, 10m, 24h or 7d, got '5'\n"
                + "--set ui.prt=1: unknown key 'ui.prt' (did you mean 'ui.port'?)\n");
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void configCheckPrintsTheEffectiveConfigWithSecretsMasked() throws Exception {
    Path config = dir.resolve("conf.yaml");
    Files.writeString(
        config,
        "storage:\n  jdbc:\n    shards: [{name: a, url: \"jdbc:h2:mem:a\", password: hunter2}]\n");

    assertThat(run("config-check", "-c", config.toString(), "--set", "queue.port=9011", "--print"))
        .isZero();

    assertThat(out.toString())
        .startsWith(
            "# "
                + config
                + " is valid. Effective configuration, secrets masked:\nstorage:\n  backend: jdbc\n")
        .contains("password: '*****'", "  port: 9011\n", "  claimTimeout: 10m\n")
        .doesNotContain("hunter2");
  }

  @Test
  void configCheckSummarizesTheConfigInOneLine() throws Exception {
    Path config = dir.resolve("conf.yaml");
    Files.writeString(
        config,
        """
        storage:
          jdbc:
            shards:
              - {name: a, url: "jdbc:mysql://flipper:hunter2@db1:3306/flipper?useSSL=true", password: hunter2}
              - {name: b, url: "jdbc:mysql://db2/flipper", dequeueOnly: true}
        workers:
          logDir: %s
        """
            .formatted(dir.resolve("logs")));

    assertThat(run("config-check", "-c", config.toString())).as(err.toString()).isZero();

    assertThat(out.toString())
        .isEqualTo(
            config
                + " is valid: queue: port 9010, admin 9999, store jdbc 2 shards "
                + "(a=db1:3306/flipper, b=db2/flipper dequeue-only), pool 10; master: port 9090, admin 9091, tokens in "
                + "db1:3306/flipper; scheduler: admin 9092, master 127.0.0.1:9090, 1 loop; workers: admin 9093, master "
                + "127.0.0.1:9090, 2 slots, logs "
                + dir.resolve("logs")
                + "; ui: port 8080, admin 9094, master "
                + "127.0.0.1:9090 (on 127.0.0.1)\n");
    assertThat(out.toString()).doesNotContain("hunter2");
  }

  @Test
  void configCheckRefusesAnSmtpPasswordInClearAndWarnsWhileItIsAllowed() throws Exception {
    Path config = dir.resolve("conf.yaml");
    String email =
        """
        email:
          enabled: true
          smtpHost: mail.example.com
          from: flipper@example.com
          user: flipper
          password: hunter2
        workers:
          logDir: %s
        """
            .formatted(dir.resolve("logs"));
    Files.writeString(config, email);

    assertThat(run("config-check", "-c", config.toString())).isEqualTo(2);
    assertThat(err.toString())
        .isEqualTo(
            config
                + ":6: 'email.password' is set but 'email.security' is NONE, so the SMTP password would "
                + "go over the network in clear: set 'email.security' to STARTTLS or TLS, or "
                + "'email.allowPlainTextPassword' to true to accept that\n");

    err.getBuffer().setLength(0);
    Files.writeString(
        config, email.replace("email:\n", "email:\n  allowPlainTextPassword: true\n"));
    assertThat(run("config-check", "-c", config.toString())).isZero();
    assertThat(err.toString())
        .isEqualTo(
            "warning: email.allowPlainTextPassword is true and email.security is NONE: the SMTP "
                + "password goes over the network in clear; use STARTTLS or TLS\n");

    err.getBuffer().setLength(0);
    Files.writeString(config, email.replace("email:\n", "email:\n  security: STARTTLS\n"));
    assertThat(run("config-check", "-c", config.toString())).isZero();
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void configCheckRefusesPortClashes() throws Exception {
    Path config = dir.resolve("conf.yaml");
    Files.writeString(config, "ui:\n  port: 9090\n");

    assertThat(run("config-check", "-c", config.toString())).isEqualTo(2);
    assertThat(err.toString())
        .isEqualTo(
            config
                + ":2: 'ui.port' and 'master.port' are both 9090; every port of "
                + "the config must differ (0 = any free port)\n");
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void configCheckRefusesMissingFilesAndUnwritablePlaces() throws Exception {
    Path config = dir.resolve("conf.yaml");
    Path aFile = Files.writeString(dir.resolve("a-file"), "x");
    Files.writeString(
        config,
        """
        storage:
          jdbc:
            shards: [{name: "1", url: "jdbc:h2:file:%s/sub/flipper;MODE=MySQL"}]
        queue:
          rateLimitFile: %s
          serverSetFile: %s
        workers:
          logDir: %s
          workDir: %s
        logging:
          file: %s/{mode}.log
        """
            .formatted(
                aFile, dir.resolve("no-such-rates"), dir, aFile, dir.resolve("new/work"), aFile));

    assertThat(run("config-check", "-c", config.toString())).isEqualTo(2);

    assertThat(err.toString())
        .isEqualTo(
            config
                + ":3: 'storage.jdbc.shards[0].url' is an H2 database at "
                + aFile
                + "/sub/flipper.mv.db, which "
                + "cannot be created: "
                + aFile
                + " is a file, not a folder\n"
                + config
                + ":5: 'queue.rateLimitFile' names "
                + dir.resolve("no-such-rates")
                + ", which does not exist\n"
                + config
                + ":6: 'queue.serverSetFile' names "
                + dir
                + ", which is a folder, not a file\n"
                + config
                + ":8: 'workers.logDir' names "
                + aFile
                + ", which is a file, not a folder\n"
                + config
                + ":11: 'logging.file' names "
                + aFile
                + "/queue.log, which cannot be created: "
                + aFile
                + " is a file, not a folder\n");
    assertThat(out.toString()).isEmpty();

    // A host that runs only the UI needs none of those, except the log file.
    StringWriter uiErr = new StringWriter();
    assertThat(
            Launcher.execute(
                new String[] {"config-check", "-c", config.toString(), "-m", "ui"},
                new PrintWriter(new StringWriter()),
                new PrintWriter(uiErr)))
        .isEqualTo(2);
    assertThat(uiErr.toString())
        .startsWith(config + ":11: 'logging.file' names " + aFile + "/ui.log");
  }

  @Test
  void configCheckOfABadFileExits2() throws Exception {
    Path config = dir.resolve("conf.yaml");
    Files.writeString(config, "storage:\n  backend: postgres\n");

    assertThat(run("config-check", "-c", config.toString())).isEqualTo(2);
    assertThat(err.toString())
        .isEqualTo(config + ":2: 'storage.backend' must be one of jdbc, redis, got 'postgres'\n");
  }

  @Test
  void hashPasswordFromAnOption() {
    assertThat(run("hash-password", "--password", "s3cret")).isZero();
    assertThat(out.toString()).isEqualTo(PasswordHash.of("s3cret") + "\n");
  }

  @Test
  void hashPasswordFromStandardInput() {
    InputStream original = System.in;
    System.setIn(new ByteArrayInputStream("s3cret\n".getBytes(StandardCharsets.UTF_8)));
    try {
      assertThat(run("hash-password")).isZero();
    } finally {
      System.setIn(original);
    }
    assertThat(out.toString()).isEqualTo(PasswordHash.of("s3cret") + "\n");
  }

  @Test
  void hashPasswordWithBcryptMakesAHashTheUiAccepts() {
    InputStream original = System.in;
    System.setIn(new ByteArrayInputStream("s3cret\n".getBytes(StandardCharsets.UTF_8)));
    try {
      assertThat(run("hash-password", "--bcrypt")).isZero();
    } finally {
      System.setIn(original);
    }
    String hash = out.toString().trim();
    assertThat(hash).matches("\\$2[aby]\\$12\\$.{53}");
    assertThat(BCrypt.checkpw("s3cret", hash)).isTrue();
    assertThat(BCrypt.checkpw("s3cret2", hash)).isFalse();
  }

  @Test
  void hashPasswordRefusesAnEmptyPassword() {
    assertThat(run("hash-password", "--password", "")).isEqualTo(2);
    assertThat(err.toString())
        .startsWith("flipper: hash-password: the password must not be empty\n");
  }

  private Path validConfig() throws Exception {
    Path config = dir.resolve("valid.yaml");
    Files.writeString(config, "queue:\n  port: 9010\n");
    return config;
  }
}
