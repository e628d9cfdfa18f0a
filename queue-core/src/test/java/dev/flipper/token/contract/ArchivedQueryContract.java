package dev.flipper.token.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.token.Token;
import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.TokenService;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * queryArchived and deleteArchived: the archive served by the master, in pages, deleted by prefix.
 */
abstract class ArchivedQueryContract extends TokenContractArea {

  @Test
  void archivedTokensAreServedByNameThenVersion() {
    Token first = insert("/old/b", "first life");
    master().archive(List.of(first));
    Token second = insert("/old/b", "second life");
    Token a = insert("/old/a", "a");
    Token other = insert("/other/x", "x");
    master().archive(List.of(second, a, other));

    assertThat(master().queryArchived("/old/", null, 10)).containsExactly(a, first, second);
    assertThat(master().queryArchived("", null, 10)).containsExactly(a, first, second, other);
    assertThat(master().queryArchived(null, null, 10)).containsExactly(a, first, second, other);
    assertThat(master().queryArchived("/none", null, 10)).isEmpty();
  }

  @Test
  void pagesCoverTheArchiveOnceEvenWhereANameWasArchivedTwice() {
    List<Token> archived = new ArrayList<>();
    for (String name : List.of("/p/a", "/p/b", "/p/b", "/p/c", "/p/d")) {
      Token token = insert(name, name);
      master().archive(List.of(token));
      archived.add(token);
    }

    List<Token> read = new ArrayList<>();
    List<Integer> sizes = new ArrayList<>();
    Token after = null;
    List<Token> page;
    do {
      page = master().queryArchived("/p/", after, 2);
      sizes.add(page.size());
      read.addAll(page);
      after = page.isEmpty() ? after : page.get(page.size() - 1);
    } while (page.size() == 2);

    assertThat(sizes).containsExactly(2, 2, 1);
    assertThat(read).containsExactlyElementsOf(archived);
  }

  @Test
  void aPageHoldsOneToTheMaximumTokens() {
    Token a = insert("/a", "a");
    master().archive(List.of(a));

    assertFails(
        TokenErrorCode.INPUT_ERROR,
        () -> master().queryArchived("/", null, 0),
        "maxTokens 0",
        "1 to");
    assertFails(
        TokenErrorCode.INPUT_ERROR,
        () -> master().queryArchived("/", null, TokenService.MAX_ARCHIVED_PAGE + 1),
        "maxTokens");
    assertThat(master().queryArchived("/", null, TokenService.MAX_ARCHIVED_PAGE))
        .containsExactly(a);
    assertThat(master().queryArchived("/\u00e9", null, 1)).isEmpty(); // no name holds it
  }

  @Test
  void deletingByPrefixCountsAndKeepsTheRest() {
    Token gone1 = insert("/wf/1/a", "a");
    Token gone2 = insert("/wf/1/b", "b");
    Token kept = insert("/wf/10/a", "a");
    master().archive(List.of(gone1, gone2, kept));
    Token active = insert("/wf/1/a", "active again");

    assertThat(master().deleteArchived("/wf/1/")).isEqualTo(2);
    assertThat(master().deleteArchived("/wf/1/")).isZero();

    assertThat(master().queryArchived("", null, 10)).containsExactly(kept);
    assertThat(all()).containsExactly(active);
  }

  @Test
  void deletingNeedsANonEmptyValidPrefix() {
    Token a = insert("/a", "a");
    master().archive(List.of(a));

    assertFails(TokenErrorCode.INPUT_ERROR, () -> master().deleteArchived(""), "non-empty");
    assertFails(TokenErrorCode.INPUT_ERROR, () -> master().deleteArchived(null), "non-empty");
    assertFails(
        TokenErrorCode.INPUT_ERROR,
        () -> master().deleteArchived("/a b"),
        "'/a b'",
        "visible ASCII");

    assertThat(master().queryArchived("", null, 10)).containsExactly(a);
  }

  @Test
  void anotherMasterOverTheSameStorageServesTheSameArchive() {
    Token a = insert("/a", "a");
    master().archive(List.of(a));

    assertThat(fx().anotherMaster().queryArchived("", null, 10)).containsExactly(a);
    assertThat(fx().anotherMaster().deleteArchived("/a")).isEqualTo(1);
    assertThat(master().queryArchived("", null, 10)).isEmpty();
  }
}
