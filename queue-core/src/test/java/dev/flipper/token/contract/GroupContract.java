package dev.flipper.token.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** group: counts by prefix and suffix (docs/tokens.md, "Operations"). */
abstract class GroupContract extends TokenContractArea {

  @Test
  void workflowsAreGroupedWithoutTheTrailingDelimiter() {
    insert("/workflow/A/1/job/waiting/x", 0);
    insert("/workflow/A/1/job/runnable/y", 0);
    insert("/workflow/A/2/job/waiting/x", 0);
    insert("/workflow/B/7/job/waiting/z", 0);
    insert("/schedule/workflow/A", 0);

    assertThat(master().group("/workflow/", "/"))
        .containsExactly(Map.entry("/workflow/A", 3), Map.entry("/workflow/B", 1));
    assertThat(master().group("/workflow/A/", "/"))
        .containsExactly(Map.entry("/workflow/A/1", 2), Map.entry("/workflow/A/2", 1));
  }

  @Test
  void withoutASuffixOrWhenItIsNotFoundEachNameIsItsOwnGroup() {
    insert("/g/a", 0);
    insert("/g/b/c", 0);

    assertThat(master().group("/g/", null))
        .containsExactly(Map.entry("/g/a", 1), Map.entry("/g/b/c", 1));
    assertThat(master().group("/g/", ""))
        .containsExactly(Map.entry("/g/a", 1), Map.entry("/g/b/c", 1));
    assertThat(master().group("/g/", "#"))
        .containsExactly(Map.entry("/g/a", 1), Map.entry("/g/b/c", 1));
    assertThat(master().group("/g/", "\u00e9"))
        .containsExactly(Map.entry("/g/a", 1), Map.entry("/g/b/c", 1));
  }

  @Test
  void aGroupInterruptedInNameOrderByAnotherIsCountedWhole() {
    insert("/g/a", 0); // group /g/a
    insert(
        "/g/a-b/1", 0); // group /g/a-b: '-' sorts before '/', so it comes between the names of /g/a
    insert("/g/a/1", 0); // group /g/a again
    insert("/g/a/2", 0);

    assertThat(master().group("/g/", "/"))
        .containsExactly(Map.entry("/g/a", 3), Map.entry("/g/a-b", 1));
  }

  @Test
  void manyGroupsLargeAndSmallInterleavedAreCountedExactly() {
    java.util.List<String> names =
        new java.util.ArrayList<>(
            java.util.List.of(
                "/m/a",
                "/m/a-1/x",
                "/m/a-2/x",
                "/m/a-3/x",
                "/m/a/1",
                "/m/a/2",
                "/m/b",
                "/m/b0",
                "/m/b/1",
                "/m/c/1/2",
                "/m/c/3",
                "/m/m",
                "/n/1"));
    for (int g = 0; g < 12; g++) {
      for (int i = 0; i <= g * 30; i++) { // groups of 1 to 331 names
        names.add("/m/g" + (char) ('a' + g) + "/" + i);
      }
    }
    insert(
        names.stream()
            .map(name -> dev.flipper.token.Token.of(name, "d"))
            .toArray(dev.flipper.token.Token[]::new));
    java.util.SortedMap<String, Integer> expected = new java.util.TreeMap<>();
    for (String name : names) {
      if (name.startsWith("/m/")) {
        int at = name.indexOf('/', 3);
        expected.merge(at < 0 ? name : name.substring(0, at), 1, Integer::sum);
      }
    }

    assertThat(master().group("/m/", "/")).isEqualTo(expected);
    assertThat(expected)
        .containsEntry("/m/a", 3)
        .containsEntry("/m/a-1", 1)
        .containsEntry("/m/b", 2)
        .containsEntry("/m/gl", 331);
  }

  @Test
  void theSuffixIsSearchedFromTheEndOfThePrefix() {
    insert("/g/x/1", 0);
    insert("/g/x/2", 0);
    insert("/g/y", 0);
    insert("/gz/1", 0);

    assertThat(master().group("/g", "/")).containsExactly(Map.entry("/g", 3), Map.entry("/gz", 1));
    assertThat(master().group("/g/", "/"))
        .containsExactly(Map.entry("/g/x", 2), Map.entry("/g/y", 1));
    assertThat(master().group("/g/x", "/")).containsExactly(Map.entry("/g/x", 2));
  }

  @Test
  void aSuffixOfSeveralCharactersWorks() {
    insert("/w/a/__SIGNAL__/DRAIN", 0);
    insert("/w/a/__SIGNAL__/ABORT", 0);
    insert("/w/b/job", 0);

    assertThat(master().group("/w/", "/__SIGNAL__"))
        .containsExactly(Map.entry("/w/a", 2), Map.entry("/w/b/job", 1));
  }

  @Test
  void anEmptyPrefixGivesNoGroups() { // the original leaves counts unset
    insert("/a", 0);

    assertThat(master().group("", "/")).isEmpty();
    assertThat(master().group(null, "/")).isEmpty();
    assertThat(master().group("/none/", "/")).isEmpty();
  }
}
