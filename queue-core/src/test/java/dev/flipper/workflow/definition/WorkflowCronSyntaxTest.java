package dev.flipper.workflow.definition;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class WorkflowCronSyntaxTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "0 3 * * *",
        "*/15 * * * *",
        "0 9-17/2 * * MON-FRI",
        "30 6 1,15 JAN,jul *",
        "0 0 3 ? * MON#2",
        "0 3 L * *",
        "0 3 15W * *",
        "0 0 * * 7",
        "15 0 3 * * ?",
        "@daily",
        "@HOURLY",
        "  0 3 * * *  "
      })
  void acceptsUnixAndQuartzShapes(String expression) {
    assertThat(CronSyntax.problem(expression)).isEmpty();
  }

  @Test
  void countsTheFields() {
    String rule =
        "must have 5 fields (minute hour day-of-month month day-of-week) or 6 (seconds first), got ";
    assertThat(CronSyntax.problem("")).hasValue(rule + "0 in ''");
    assertThat(CronSyntax.problem("0 3 * * * * *")).hasValue(rule + "7 in '0 3 * * * * *'");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "60 3 * * *          | has a bad minute field '60' in '60 3 * * *': 60 is out of range 0-59",
        "0 3 0 * *           | has a bad day-of-month field '0' in '0 3 0 * *': 0 is out of range 1-31",
        "0 3 * 13 *          | has a bad month field '13' in '0 3 * 13 *': 13 is out of range 1-12 or a name like JAN-DEC",
        "0 3 * * FRY         | has a bad day-of-week field 'FRY' in '0 3 * * FRY': expected 0-7 or a name like SUN-SAT",
        "*/0 * * * *         | has a bad minute field '*/0' in '*/0 * * * *': the step 0 must be between 1 and 59",
        "0 ? * * *           | has a bad hour field '?' in '0 ? * * *': expected 0-23",
        "@often              | is not a cron macro: '@often' (macros: @yearly, @monthly, @weekly, @daily, @hourly)",
      })
  void namesTheBadField(String expression, String problem) {
    assertThat(CronSyntax.problem(expression)).hasValue(problem);
  }
}
