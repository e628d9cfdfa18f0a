package dev.flipper.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The order in which a command without {@code -c} looks for its config. */
class ConfigLocatorTest {
  @TempDir Path dir;
  private Path work;
  private Path home;

  @BeforeEach
  void directories() throws Exception {
    work = Files.createDirectories(dir.resolve("work"));
    home = Files.createDirectories(dir.resolve("home"));
  }

  @Test
  void minusCComesFirst() throws Exception {
    Files.writeString(work.resolve("flipper.yaml"), "");
    ConfigLocator.Located located =
        ConfigLocator.locate(Path.of("given.yaml"), Map.of("FLIPPER_CONFIG", "x"), work, home);

    assertThat(located.file()).contains(Path.of("given.yaml"));
    assertThat(located.describe()).isEqualTo("config given.yaml (given with -c)");
  }

  @Test
  void thenFlipperConfigThenTheWorkingDirectoryThenTheUsersConfigDirectory() throws Exception {
    Path named = Files.writeString(dir.resolve("named.yaml"), "master:\n  port: 9191\n");
    Files.writeString(work.resolve("flipper.yaml"), "master:\n  port: 9292\n");
    Path user = Files.createDirectories(home.resolve(".config/flipper")).resolve("flipper.yaml");
    Files.writeString(user, "master:\n  port: 9393\n");

    assertThat(port(Map.of("FLIPPER_CONFIG", named.toString()))).isEqualTo(9191);
    assertThat(port(Map.of())).isEqualTo(9292);
    Files.delete(work.resolve("flipper.yaml"));
    assertThat(port(Map.of())).isEqualTo(9393);
    assertThat(ConfigLocator.locate(null, Map.of(), work, home).describe())
        .isEqualTo("config " + user + " (found in the user's config directory)");
  }

  @Test
  void xdgConfigHomeReplacesDotConfig() throws Exception {
    Path xdg = Files.createDirectories(dir.resolve("xdg/flipper"));
    Files.writeString(xdg.resolve("flipper.yaml"), "master:\n  port: 9494\n");

    assertThat(port(Map.of("XDG_CONFIG_HOME", dir.resolve("xdg").toString()))).isEqualTo(9494);
  }

  @Test
  void withNothingFoundTheDefaultsSayWhereItLooked() {
    ConfigLocator.Located located = ConfigLocator.locate(null, Map.of(), work, home);

    assertThat(located.file()).isEqualTo(Optional.empty());
    assertThat(located.describe())
        .isEqualTo(
            "the built-in defaults (no -c, no FLIPPER_CONFIG, no ./flipper.yaml, no "
                + home.resolve(".config/flipper/flipper.yaml")
                + ")");
    assertThat(located.load(List.of(), Map.of()).master().port()).isEqualTo(9090);
  }

  @Test
  void aFlipperConfigThatNamesNoFileIsAnError() {
    assertThatThrownBy(
            () ->
                ConfigLocator.locate(
                    null,
                    Map.of("FLIPPER_CONFIG", dir.resolve("gone.yaml").toString()),
                    work,
                    home))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "FLIPPER_CONFIG="
                + dir.resolve("gone.yaml")
                + ": no such file (unset it, or point it at the config file)");
  }

  private int port(Map<String, String> env) {
    return ConfigLocator.locate(null, env, work, home).load(List.of(), env).master().port();
  }
}
