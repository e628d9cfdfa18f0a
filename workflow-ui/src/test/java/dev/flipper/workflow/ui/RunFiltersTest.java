package dev.flipper.workflow.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flipper.history.RunQuery;
import dev.flipper.history.RunSort;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RunFiltersTest {
  private static RunFilters parse(Map<String, List<String>> params) {
    return RunFilters.parse(params, RunFilters.RUN_STATUSES);
  }

  private static long millis(String iso) {
    return Instant.parse(iso).toEpochMilli();
  }

  @Test
  void noParametersMeanEveryRunNewestFirstFiftyAPage() {
    RunQuery query = parse(Map.of()).runs("etl");

    assertThat(query)
        .isEqualTo(
            new RunQuery("etl", Set.of(), Set.of(), null, null, null, RunSort.NEWEST, 0, 50));
  }

  @Test
  void everyFilterBecomesPartOfTheQuery() {
    RunFilters filters =
        parse(
            Map.of(
                "status", List.of("failure", "ABORTED"),
                "trigger", List.of("cli,retry", "scheduler"),
                "from", List.of("2026-11-20"),
                "to", List.of("2026-11-21"),
                "q", List.of(" day=1 "),
                "sort", List.of("LONGEST"),
                "page", List.of("3"),
                "size", List.of("20")));

    assertThat(filters.runs("etl"))
        .isEqualTo(
            new RunQuery(
                "etl",
                Set.of("FAILURE", "ABORTED"),
                Set.of("cli", "retry", "scheduler"),
                millis("2026-11-20T00:00:00Z"),
                millis("2026-11-22T00:00:00Z"), // a "to" date includes that whole day
                "day=1",
                RunSort.LONGEST,
                40,
                20));
    assertThat(filters.filtered()).isTrue();
  }

  @Test
  void aDateAndTimeIsThatMinuteInUtc() {
    RunFilters filters =
        parse(Map.of("from", List.of("2026-11-20T10:00"), "to", List.of("2026-11-20 12:30:15")));

    assertThat(filters.startFrom()).isEqualTo(millis("2026-11-20T10:00:00Z"));
    assertThat(filters.startBefore()).isEqualTo(millis("2026-11-20T12:30:15Z"));
  }

  @Test
  void emptyFieldsOfAFormAreNoFilter() {
    RunFilters filters =
        parse(
            Map.of(
                "from", List.of(""), "to", List.of(" "), "q", List.of(""), "trigger", List.of("")));

    assertThat(filters.filtered()).isFalse();
    assertThat(filters.atPage(1)).isEmpty();
  }

  @Test
  void linksKeepTheFiltersAndLeaveDefaultsOut() {
    RunFilters filters =
        parse(
            Map.of(
                "status", List.of("FAILURE"),
                "q", List.of("a b&c"),
                "from", List.of("2026-11-20"),
                "size", List.of("10")));

    assertThat(filters.atPage(2))
        .isEqualTo("?status=FAILURE&from=2026-11-20&q=a+b%26c&size=10&page=2");
    assertThat(filters.sortedBy("oldest"))
        .isEqualTo("?status=FAILURE&from=2026-11-20&q=a+b%26c&sort=oldest&size=10");
  }

  @Test
  void badValuesNameTheParameterAndWhatIsAllowed() {
    assertThatThrownBy(() -> parse(Map.of("status", List.of("DONE"))))
        .hasMessage(
            "parameter 'status' is 'DONE'; use one of RUNNING, SUCCESS, FAILURE, ABORTED, PAUSED,"
                + " DRAINED");
    assertThatThrownBy(() -> parse(Map.of("sort", List.of("fastest"))))
        .hasMessage("parameter 'sort' is 'fastest'; use one of newest, oldest, longest, shortest");
    assertThatThrownBy(() -> parse(Map.of("size", List.of("501"))))
        .hasMessage("parameter 'size' is '501'; use a whole number from 1 to 500");
    assertThatThrownBy(() -> parse(Map.of("page", List.of("0"))))
        .hasMessageStartingWith("parameter 'page' is '0'; use a whole number from 1 to ");
    assertThatThrownBy(() -> parse(Map.of("page", List.of("x"))))
        .hasMessageStartingWith("parameter 'page' is 'x'");
    assertThatThrownBy(() -> parse(Map.of("from", List.of("20.11.2026"))))
        .hasMessage(
            "parameter 'from' is '20.11.2026'; use a UTC date like 2026-11-20 or a date and time"
                + " like 2026-11-20T10:00");
    assertThatThrownBy(
            () -> parse(Map.of("from", List.of("2026-11-21"), "to", List.of("2026-11-20"))))
        .hasMessage("parameter 'from' (2026-11-21) must be before 'to' (2026-11-20)");
    assertThatThrownBy(() -> parse(Map.of("q", List.of("a", "b"))))
        .hasMessage("parameter 'q' is given 2 times; give it at most once");
  }

  @Test
  void aJobHistoryAllowsTheStatusesOfExecutions() {
    RunFilters filters =
        RunFilters.parse(Map.of("status", List.of("disabled")), RunFilters.EXECUTION_STATUSES);

    assertThat(filters.executions("etl", "load").statuses()).containsExactly("DISABLED");
    assertThatThrownBy(
            () ->
                RunFilters.parse(
                    Map.of("status", List.of("PAUSED")), RunFilters.EXECUTION_STATUSES))
        .hasMessageContaining("use one of RUNNING, SUCCESS, FAILURE, ABORTED, DISABLED");
  }
}
