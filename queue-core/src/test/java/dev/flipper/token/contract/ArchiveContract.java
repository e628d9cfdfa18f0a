package dev.flipper.token.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.token.ModifyParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.spi.TokenStore;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * archive: tokens leave the active set and are kept unchanged in the archive (docs/tokens.md,
 * "Operations").
 */
abstract class ArchiveContract extends TokenContractArea {

  TokenStore store() {
    return fx().store();
  }

  @Test
  void archivedTokensLeaveTheMasterAndAreKeptUnchanged() {
    List<Token> instance =
        insert(
            Token.of("/workflow/wf/1/job/waiting/a", "{\"a\":1}").withPriority(2),
            Token.of("/workflow/wf/1/job/waiting/b", "{\"b\":2}").withOwner("w", nowSeconds() + 60),
            Token.of("/workflow/wf/1/__SIGNAL__/ARCHIVE", null));
    Token other = insert("/workflow/wf/2/job/waiting/a", "other instance");

    master().archive(instance);

    assertThat(under("/workflow/wf/1/")).isEmpty();
    assertThat(all()).containsExactly(other);
    assertThat(store().queryArchived("/workflow/wf/1/"))
        .containsExactlyInAnyOrderElementsOf(instance);
    assertThat(store().queryArchived("/workflow/wf/")).hasSize(3);
  }

  @Test
  void archivingWithAStaleVersionConflictsAndMovesNothing() {
    Token a = insert("/a", "a");
    Token b = insert("/b", "b");
    Token b2 = update(b.withData("b2"));

    assertFails(TokenErrorCode.VERSION_CONFLICT, () -> master().archive(List.of(a, b)), "'/b'");

    assertThat(all()).containsExactly(a, b2);
    assertThat(store().queryArchived("")).isEmpty();
  }

  @Test
  void archivingNeedsVersionsAndExistingTokens() {
    Token a = insert("/a", "a");

    assertFails(
        TokenErrorCode.INPUT_ERROR,
        () -> master().archive(List.of(a.withoutVersion())),
        "'/a'",
        "version");
    assertFails(
        TokenErrorCode.NOT_FOUND,
        () -> master().archive(List.of(a, Token.of("/b", "").withVersion(3))),
        "'/b'");
    assertFails(TokenErrorCode.INPUT_ERROR, () -> master().archive(List.of(a, a)), "'/a'", "twice");
    assertThat(all()).containsExactly(a);
  }

  @Test
  void anEmptyArchiveIsANoOp() { // Pinball's transaction_test
    Token a = insert("/a", "a");

    master().archive(List.of());

    assertThat(all()).containsExactly(a);
    assertThat(store().queryArchived("")).isEmpty();
  }

  @Test
  void aNameCanBeArchivedAgainAfterItIsInsertedAnew() {
    Token first = insert("/a", "first life");
    master().archive(List.of(first));
    Token second = insert("/a", "second life");
    master().archive(List.of(second));

    assertThat(store().queryArchived("/a")).containsExactly(first, second);
    assertThat(all()).isEmpty();
  }

  @Test
  void archivedTokensAreListedByNameThenVersionAndCanBeDeletedByPrefix() {
    Token b = insert("/old/b", "b");
    Token a = insert("/old/a", "a");
    Token keep = insert("/older/x", "x");
    master().archive(List.of(b, a, keep));

    assertThat(store().queryArchived("/old")).containsExactly(a, b, keep);

    assertThat(store().deleteArchived("/old/")).isEqualTo(2);
    assertThat(store().queryArchived("")).containsExactly(keep);
  }

  @Test
  void archiveMovesOnlyWhatItNames() { // as Pinball's transaction_test: active + archived stays the
    // same size
    List<Token> tokens =
        insert(
            Token.of("/t/1", ""), Token.of("/t/2", ""), Token.of("/t/3", ""), Token.of("/t/4", ""));

    master().archive(List.of(tokens.get(1), tokens.get(3)));

    assertThat(all()).containsExactly(tokens.get(0), tokens.get(2));
    assertThat(store().queryArchived("")).containsExactly(tokens.get(1), tokens.get(3));
    master().modify(ModifyParams.deleting(tokens.get(0)));
    assertThat(store().queryArchived("")).hasSize(2);
  }
}
