package dev.flipper.workflow.worker.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CommandTemplateTest {
  private static String render(String template, Map<String, List<String>> attributes) {
    return CommandTemplate.of(template).render(attributes);
  }

  @Test
  void rendersAScalarNotAList() {
    assertThat(render("echo %(akey)s", Map.of("akey", List.of("aval")))).isEqualTo("echo 'aval'");
  }

  @Test
  void joinsTheValuesOfSeveralParentsWithCommas() {
    assertThat(render("cat %(path)s > out", Map.of("path", List.of("/a", "/b", "/c"))))
        .isEqualTo("cat '/a,/b,/c' > out");
  }

  @Test
  void rendersMissingNamesAsEmpty() {
    assertThat(render("run --day=%(day)s --x=%(x)s", Map.of("x", List.of())))
        .isEqualTo("run --day='' --x=''");
  }

  @Test
  void doublePercentIsALiteralPercent() {
    assertThat(render("date +%%Y-%%m && echo 100%%", Map.of()))
        .isEqualTo("date +%Y-%m && echo 100%");
    assertThat(render("echo %%(akey)s", Map.of("akey", List.of("v")))).isEqualTo("echo %(akey)s");
  }

  @Test
  void leavesAnyOtherPercentAsItIs() {
    assertThat(render("date +%Y-%m-%d; printf '%s' %(", Map.of()))
        .isEqualTo("date +%Y-%m-%d; printf '%s' %(");
    assertThat(render("%(a)d %(a %()s %(a)", Map.of("a", List.of("v"))))
        .isEqualTo("%(a)d %(a %()s %(a)");
    assertThat(render("trailing %", Map.of())).isEqualTo("trailing %");
  }

  @Test
  void rendersPlaceholdersNextToEachOther() {
    assertThat(render("%(a)s%(b)s/%(a)s", Map.of("a", List.of("1"), "b", List.of("2"))))
        .isEqualTo("'1''2'/'1'");
  }

  @Test
  void cleanupTakesTheKillIdProperties() {
    CommandTemplate cleanup = CommandTemplate.of("./kill.sh %(kill_id)s %(other)s");

    assertThat(cleanup.uses("kill_id")).isTrue();
    assertThat(cleanup.renderCleanup(Map.of("kill_id", List.of("q1", "q2"), "other", List.of("x"))))
        .isEqualTo("./kill.sh 'q1,q2' ''");
    assertThat(cleanup.renderCleanup(Map.of())).isEqualTo("./kill.sh '' ''");
  }

  /** Issue #25: values were pasted into the shell command unquoted. */
  @Test
  void quotesValuesForTheShellUnlessRaw() {
    Map<String, List<String>> v = Map.of("v", List.of("it's $(id); rm -rf x \"y\""));
    assertThat(render("echo %(v)s", v)).isEqualTo("echo 'it'\\''s $(id); rm -rf x \"y\"'");
    assertThat(render("echo %(v:raw)s", v)).isEqualTo("echo it's $(id); rm -rf x \"y\"");
    assertThat(CommandTemplate.of("./kill.sh %(kill_id:raw)s").uses("kill_id")).isTrue();
  }
}
