package dev.flipper.token.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenErrorCode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * query: prefix matches, the two documented orders, several queries per call (docs/tokens.md,
 * "Operations").
 */
abstract class QueryContract extends TokenContractArea {

  @Test
  void withoutMaxTokensEveryPrefixMatchComesBackInNameOrder() {
    insert("/q/b", 5);
    insert("/q/a/2", 1);
    insert("/q/c", 9);
    insert("/q/a/1", 7);
    insert("/r/a", 100);

    assertThat(names(under("/q/"))).containsExactly("/q/a/1", "/q/a/2", "/q/b", "/q/c");
  }

  @Test
  void withMaxTokensTheHighestPrioritiesComeFirstThenNames() {
    insert("/q/low", -1);
    insert("/q/b-high", 10);
    insert("/q/a-high", 10);
    insert("/q/mid", 2.5);
    insert("/q/zero", 0);

    assertThat(names(master().query(Query.top("/q/", 3))))
        .containsExactly("/q/a-high", "/q/b-high", "/q/mid");
    assertThat(names(master().query(Query.top("/q/", 100))))
        .containsExactly("/q/a-high", "/q/b-high", "/q/mid", "/q/zero", "/q/low");
    assertThat(master().query(Query.top("/q/", 0))).isEmpty();
  }

  @Test
  void aPrefixMatchesByCharactersNotPathSegments() {
    insert("/a", 0);
    insert("/a/b", 0);
    insert("/ab", 0);
    insert("/a~", 0);
    insert("/b", 0);
    insert("/", 0);

    assertThat(names(under("/a"))).containsExactly("/a", "/a/b", "/ab", "/a~");
    assertThat(names(under("/a/"))).containsExactly("/a/b");
    assertThat(names(under("/a~"))).containsExactly("/a~");
    assertThat(names(under("/a/b"))).containsExactly("/a/b");
    assertThat(names(under("/a/b/"))).isEmpty();
    assertThat(under("")).hasSize(6);
  }

  @Test
  void nameOrderIsByteOrderOfTheAsciiNames() {
    List<String> sorted = List.of("/!", "/#", "/0", "/9", "/A", "/Z", "/_", "/a", "/z", "/~");
    for (int i = sorted.size() - 1; i >= 0; i--) {
      insert(sorted.get(i), 0);
    }

    assertThat(names(under("/"))).containsExactlyElementsOf(sorted);
  }

  @Test
  void severalQueriesAnswerInRequestOrder() {
    insert("/x/1", 1);
    insert("/x/2", 2);
    insert("/y/1", 3);

    List<List<Token>> answers =
        master()
            .query(
                List.of(
                    Query.prefix("/y/"),
                    Query.top("/x/", 1),
                    Query.prefix("/none/"),
                    Query.prefix("/x/")));

    assertThat(answers).hasSize(4);
    assertThat(names(answers.get(0))).containsExactly("/y/1");
    assertThat(names(answers.get(1))).containsExactly("/x/2");
    assertThat(answers.get(2)).isEmpty();
    assertThat(names(answers.get(3))).containsExactly("/x/1", "/x/2");
  }

  @Test
  void aQueryChangesNothing() {
    List<Token> before = List.of(insert("/a", 1), insert("/b", 2));

    master().query(Query.top("", 1));
    master().query(Query.prefix("/"));

    assertThat(all()).containsExactlyElementsOf(before);
  }

  @Test
  void aNegativeMaxTokensIsAnInputErrorAndANonAsciiPrefixMatchesNothing() {
    insert("/a", 1);

    assertFails(
        TokenErrorCode.INPUT_ERROR, () -> master().query(Query.top("/a", -1)), "maxTokens", "-1");
    assertThat(under("/\u00e9")).isEmpty();
    assertThat(master().query(List.of())).isEmpty();
  }
}
