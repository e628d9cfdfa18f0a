package dev.flipper.workflow.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The start form's parameter rows: kept in order, blank rows skipped, each problem named. */
class StartParamsTest {
  @Test
  void rowsBecomeParametersInOrderAndBlankRowsAreSkipped() {
    assertThat(StartParams.parse(List.of("day", "", "mode"), List.of("2026-11-28", "", "full")))
        .containsExactly(Map.entry("day", "2026-11-28"), Map.entry("mode", "full"));
  }

  @Test
  void everyProblemIsNamedByItsRowAndField() {
    assertThatThrownBy(
            () ->
                StartParams.parse(
                    List.of("day", "bad key", "day", "", "k".repeat(65)),
                    List.of("1", "2", "3", "orphan", "5")))
        .isInstanceOf(UiServer.BadRequestException.class)
        .hasMessageContaining(
            "parameter 2: key 'bad key' may only contain letters, digits, '_', '.' and '-'")
        .hasMessageContaining("parameter 3: key 'day' is given twice (also parameter 1)")
        .hasMessageContaining("parameter 4: the value 'orphan' has no key")
        .hasMessageContaining("parameter 5: key '" + "k".repeat(20) + "…' is longer than 64");
  }
}
