package dev.flipper.token.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.token.ModifyParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.TokenNames;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** modify: inserts, updates, deletes, all or nothing (docs/tokens.md, "Operations"). */
abstract class ModifyContract extends TokenContractArea {

  @Test
  void anInsertIntoAFreeNameReturnsTheTokenWithANewPositiveVersion() {
    Token sent =
        new Token(
            Token.NO_VERSION,
            "/workflow/wf/1/job/waiting/a",
            "someone",
            1_900_000_000L,
            2.5,
            "{\"kind\":\"job\"}");

    Token written = insert(sent).get(0);

    assertThat(written.version()).isPositive();
    assertThat(written).isEqualTo(sent.withVersion(written.version()));
    assertThat(all()).containsExactly(written);
  }

  @Test
  void anUpdateWithAStaleVersionConflictsAndNoPartOfTheRequestApplies() {
    Token a = insert("/a", "a1");
    Token b = insert("/b", "b1");
    update(a.withData("a2"));

    assertFails(
        TokenErrorCode.VERSION_CONFLICT,
        () ->
            master()
                .modify(
                    new ModifyParams(
                        List.of(b.withData("b2"), Token.of("/c", "c1"), a.withData("a3")),
                        List.of())),
        "'/a'",
        String.valueOf(a.version()));

    assertThat(get("/b")).isEqualTo(b);
    assertThat(get("/c")).isNull();
    assertThat(get("/a").data()).isEqualTo("a2");
  }

  @Test
  void anUpdateNamingAVersionOfAMissingTokenIsNotFound() {
    assertFails(
        TokenErrorCode.NOT_FOUND,
        () -> update(Token.of("/missing", "x").withVersion(42)),
        "'/missing'",
        "not found");
    assertThat(all()).isEmpty();
  }

  @Test
  void aDeleteWithoutVersionIsAnInputError() {
    Token a = insert("/a", "a");

    assertFails(
        TokenErrorCode.INPUT_ERROR,
        () -> master().modify(ModifyParams.deleting(a.withoutVersion())),
        "'/a'",
        "version");
    assertThat(all()).containsExactly(a);
  }

  @Test
  void aDeleteOfAMissingTokenIsNotFoundAndOfAStaleOneAConflict() {
    Token a = insert("/a", "a");
    Token a2 = update(a.withData("new"));

    assertFails(
        TokenErrorCode.NOT_FOUND,
        () -> master().modify(ModifyParams.deleting(Token.of("/b", "").withVersion(7))),
        "'/b'");
    assertFails(
        TokenErrorCode.VERSION_CONFLICT, () -> master().modify(ModifyParams.deleting(a)), "'/a'");
    assertThat(all()).containsExactly(a2);
  }

  @Test
  void anInsertOverAnExistingNameConflicts() {
    Token a = insert("/a", "a");

    assertFails(TokenErrorCode.VERSION_CONFLICT, () -> insert("/a", "again"), "'/a'", "exists");
    assertThat(all()).containsExactly(a);
  }

  @Test
  void updatesAndDeletesApplyTogetherWithFreshUniqueVersionsInRequestOrder() {
    List<Token> before =
        insert(
            Token.of("/d/1", "1"),
            Token.of("/d/2", "2"),
            Token.of("/d/3", "3"),
            Token.of("/d/4", "4"));
    long highestBefore = before.stream().mapToLong(Token::version).max().orElseThrow();

    List<Token> written =
        master()
            .modify(
                new ModifyParams(
                    List.of(
                        before.get(2).withData("3b"),
                        Token.of("/d/5", "5"),
                        before.get(0).withPriority(9)),
                    List.of(before.get(1), before.get(3))));

    assertThat(names(written)).containsExactly("/d/3", "/d/5", "/d/1");
    assertThat(written.get(0).data()).isEqualTo("3b");
    assertThat(written.get(2).priority()).isEqualTo(9);
    assertThat(new HashSet<>(versions(written))).hasSize(3);
    assertThat(versions(written)).allSatisfy(v -> assertThat(v).isGreaterThan(highestBefore));
    assertThat(all()).containsExactlyInAnyOrderElementsOf(written);
  }

  @Test
  void aFailingDeleteAtTheEndUndoesEveryUpdateBeforeIt() {
    Token a = insert("/a", "a");
    Token b = insert("/b", "b");

    assertFails(
        TokenErrorCode.NOT_FOUND,
        () ->
            master()
                .modify(
                    new ModifyParams(
                        List.of(a.withData("changed"), Token.of("/new", "n")),
                        List.of(b, Token.of("/gone", "").withVersion(5)))),
        "'/gone'");

    assertThat(all()).containsExactly(a, b);
  }

  @Test
  void anEmptyModifyChangesNothing() { // Pinball's transaction_test
    Token a = insert("/a", "a");

    assertThat(master().modify(new ModifyParams(null, null))).isEmpty();
    assertThat(master().modify(new ModifyParams(List.of(), List.of()))).isEmpty();
    assertThat(all()).containsExactly(a);
  }

  @Test
  void ownershipDoesNotProtectATokenFromModify() { // the original's semantics, on purpose
    // (docs/tokens.md)
    Token owned = insert(Token.of("/owned", "x").withOwner("worker-1", nowSeconds() + 3600)).get(0);

    Token changed = update(owned.withData("changed by someone else"));
    master().modify(ModifyParams.deleting(changed));

    assertThat(all()).isEmpty();
  }

  @Test
  void aNameMayAppearOnlyOncePerRequest() {
    Token a = insert("/a", "a");

    assertFails(
        TokenErrorCode.INPUT_ERROR,
        () -> master().modify(ModifyParams.updating(a, a.withData("b"))),
        "'/a'",
        "twice");
    assertFails(
        TokenErrorCode.INPUT_ERROR,
        () -> master().modify(ModifyParams.updating(a).withDeletes(a)),
        "'/a'",
        "twice");
    assertThat(all()).containsExactly(a);
  }

  @Test
  void namesAreVisibleAsciiOfOneTo1024Characters() {
    String longest = "/" + "n".repeat(TokenNames.MAX_NAME_LENGTH - 1);

    Token written = insert(longest, "fits");

    assertThat(get(longest)).isEqualTo(written);
    assertFails(
        TokenErrorCode.INPUT_ERROR, () -> insert(longest + "x", "too long"), "1025", "1024");
    assertFails(TokenErrorCode.INPUT_ERROR, () -> insert("/caf\u00e9", "x"), "U+00E9");
    assertFails(TokenErrorCode.INPUT_ERROR, () -> insert("/tab\there", "x"), "U+0009");
    assertFails(TokenErrorCode.INPUT_ERROR, () -> insert("/trailing ", "x"), "U+0020");
    assertFails(TokenErrorCode.INPUT_ERROR, () -> insert("", "x"), "name");
    assertFails(TokenErrorCode.INPUT_ERROR, () -> insert(Token.of(null, "x")), "name");
    assertThat(all()).containsExactly(written);
  }

  @Test
  void everyVisibleAsciiCharacterIsAllowedInNames() {
    StringBuilder all = new StringBuilder("/");
    for (char c = 0x21; c <= 0x7E; c++) {
      all.append(c);
    }
    Token written = insert(all.toString(), "every character");

    assertThat(get(all.toString())).isEqualTo(written);
  }

  @Test
  void priorityMustBeFiniteAndVersionsNotNegative() {
    assertFails(
        TokenErrorCode.INPUT_ERROR,
        () -> insert(Token.of("/p", "x").withPriority(Double.NaN)),
        "'/p'",
        "priority");
    assertFails(
        TokenErrorCode.INPUT_ERROR,
        () -> insert(Token.of("/p", "x").withPriority(Double.POSITIVE_INFINITY)),
        "priority");
    assertFails(
        TokenErrorCode.INPUT_ERROR,
        () -> insert(Token.of("/p", "x").withVersion(-3)),
        "'/p'",
        "-3");
    assertThat(all()).isEmpty();
  }

  @Test
  void everyFieldIsStoredExactlyAsSent() {
    List<Token> sent =
        Arrays.asList(
            new Token(0, "/f/null-fields", null, 0, 0, null),
            new Token(0, "/f/empty-fields", "", 0, -0.5, ""),
            new Token(0, "/f/forever", "__master__", Long.MAX_VALUE, 1e300, "plain text"),
            new Token(0, "/f/negative", "o", -5, -1e-9, "x"),
            new Token(
                0,
                "/f/unicode",
                "w\u00f6rker \u4e2d",
                1_700_000_000L,
                3,
                "{\"emoji\":\"\ud83d\ude80\",\"accents\":\"\u00e0\u00e9\u00ee\",\"quote\":\"'\\\"\\\\\"}"),
            new Token(0, "/f/large", "o", 1, 1, "x".repeat(200_000)));

    List<Token> written = master().modify(new ModifyParams(sent, List.of()));

    for (int i = 0; i < sent.size(); i++) {
      assertThat(written.get(i)).isEqualTo(sent.get(i).withVersion(written.get(i).version()));
    }
    assertThat(all()).containsExactlyInAnyOrderElementsOf(written);
  }

  @Test
  void anUpdateWritesEveryFieldOfTheNewToken() {
    Token a = insert(Token.of("/a", "old").withOwner("w", 1_900_000_000L).withPriority(4)).get(0);

    Token b = update(a.withoutOwner().withPriority(-1).withData(null));

    assertThat(get("/a")).isEqualTo(b);
    assertThat(b.owner()).isNull();
    assertThat(b.expirationTime()).isZero();
    assertThat(b.data()).isNull();
  }
}
