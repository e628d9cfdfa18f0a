package dev.flipper.workflow.master.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import java.io.BufferedReader;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * pinball_util's commands (Pinball's pinball_util_test; docs/tokens.md, "Token tool"): ls, cat, rm,
 * update, recursive and not.
 */
class TokenToolTest {
  private final TokenService master = TokenService.builder(InMemoryTokenStore.create()).build();
  private String out;
  private String err;

  @BeforeEach
  void tokens() {
    master.modify(
        new ModifyParams(
            List.of(
                Token.of("/workflow/a/1/job/waiting/x", "dx"),
                Token.of("/workflow/a/1/job/waiting/y", "dy"),
                Token.of("/workflow/a/2/job/runnable/z", "dz").withOwner("w", 1_900_000_000L),
                Token.of("/workflow/b/7/job/waiting/x", "db"),
                Token.of("/schedule/workflow/a", "s")),
            List.of()));
  }

  private int run(String answer, String... args) {
    StringWriter outText = new StringWriter();
    StringWriter errText = new StringWriter();
    TokenTool tool =
        new TokenTool((host, port) -> master, new BufferedReader(new StringReader(answer)));
    CommandLine line = TokenTool.commandLine(tool);
    line.setOut(new PrintWriter(outText, true));
    line.setErr(new PrintWriter(errText, true));
    int code = line.execute(args);
    out = outText.toString();
    err = errText.toString();
    return code;
  }

  @Test
  void lsListsChildrenWithCounts() {
    assertThat(run("", "ls", "/workflow/")).isZero();

    assertThat(out).isEqualTo("total 2\n/workflow/a [3 token(s)]\n/workflow/b [1 token(s)]\n");
  }

  @Test
  void lsRecursiveListsEveryName() {
    assertThat(run("", "ls", "-r", "/workflow/a/")).isZero();

    assertThat(out).startsWith("total 3\n").contains("/workflow/a/2/job/runnable/z [1 token(s)]");
  }

  @Test
  void catShowsOneTokenOrASubtree() {
    assertThat(run("", "cat", "/workflow/a/2/job/runnable/z")).isZero();
    assertThat(out)
        .startsWith("total 1\n")
        .contains("name=/workflow/a/2/job/runnable/z")
        .contains("owner=w")
        .contains("1900000000 (2030-03-17T17:46:40Z)")
        .contains("data=dz");

    assertThat(run("", "cat", "/workflow/a/")).isEqualTo(1); // no token has exactly that name
    assertThat(err).contains("no token named /workflow/a/", "-r");

    assertThat(run("", "cat", "-r", "/workflow/a/")).isZero();
    assertThat(out).startsWith("total 3\n");
  }

  @Test
  void rmAsksAndRemovesOnlyWhenConfirmed() {
    assertThat(run("n\n", "rm", "-r", "/workflow/a/")).isZero();
    assertThat(out)
        .contains("removing:")
        .contains("\t/workflow/a/1/job/waiting/x")
        .contains("[y/N]")
        .endsWith("removed 0 token(s)\n");
    assertThat(master.query(Query.prefix("/workflow/a/"))).hasSize(3);

    assertThat(run("y\n", "rm", "-r", "/workflow/a/")).isZero();
    assertThat(out).endsWith("removed 3 token(s)\n");
    assertThat(master.query(Query.prefix("/workflow/"))).hasSize(1);
  }

  @Test
  void rmWithYesDoesNotAskAndWithoutRecursionTakesTheExactName() {
    assertThat(run("", "rm", "--yes", "/schedule/workflow/a")).isZero();

    assertThat(out).doesNotContain("[y/N]").endsWith("removed 1 token(s)\n");
    assertThat(master.query(Query.prefix("/schedule/"))).isEmpty();
    assertThat(run("", "rm", "--yes", "/workflow/")).isEqualTo(1);
    assertThat(out).contains("no tokens found");
    assertThat(run("", "rm", "-r", "--yes", "/nothing/")).isZero();
  }

  @Test
  void updateInsertsAndThenUpdatesWithTheVersion() {
    assertThat(run("", "update", "-n", "/new", "-d", "{\"k\":1}", "-i", "2.5")).isZero();
    assertThat(out).startsWith("inserted Token(name=/new").endsWith("updated 1 token\n");
    Token inserted = master.query(Query.prefix("/new")).get(0);
    assertThat(inserted.priority()).isEqualTo(2.5);

    assertThat(
            run(
                "",
                "update",
                "-n",
                "/new",
                "-v",
                Long.toString(inserted.version()),
                "-d",
                "v2",
                "-o",
                "me",
                "-t",
                "2000000000",
                "--yes"))
        .isZero();
    Token updated = master.query(Query.prefix("/new")).get(0);
    assertThat(updated.data()).isEqualTo("v2");
    assertThat(updated.owner()).isEqualTo("me");
    assertThat(updated.priority()).isZero();
  }

  @Test
  void errorsOfTheMasterAreOneLineAndExitCodeOne() {
    assertThat(run("", "update", "-n", "/workflow/a/1/job/waiting/x", "-d", "again")).isEqualTo(1);

    assertThat(err)
        .startsWith("error: VERSION_CONFLICT: token '/workflow/a/1/job/waiting/x' already exists");
  }

  @Test
  void ownerAndExpirationGoTogether() {
    assertThat(run("", "update", "-n", "/x", "-o", "me")).isEqualTo(2);

    assertThat(err).contains("--owner and --expiration_time go together");
  }
}
