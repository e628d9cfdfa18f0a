package dev.flipper.workflow.master.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flipper.token.ModifyParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.master.client.TokenMasterClient;
import dev.flipper.workflow.master.server.TokenMasterServer;
import java.io.BufferedReader;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The token tool against a real master (Thrift over TCP, ephemeral port): --json, exit codes,
 * ISO-8601 times.
 */
class TokenToolOverThriftTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final TokenService master = TokenService.builder(InMemoryTokenStore.create()).build();
  private final TokenMasterServer server =
      TokenMasterServer.builder(master).bindHost("127.0.0.1").port(0).build().start();

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void jsonOutputOfLsAndCat() throws Exception {
    master.modify(
        new ModifyParams(
            List.of(Token.of("/workflow/a/1", "d1"), Token.of("/workflow/b/1", "d2")), List.of()));

    Result cat = run("--json", "cat", "/workflow/a/1");
    assertThat(cat.code).as(cat.err).isZero();
    JsonNode token = JSON.readTree(cat.out).get("tokens").get(0);
    assertThat(token.get("name").asText()).isEqualTo("/workflow/a/1");
    assertThat(token.get("data").asText()).isEqualTo("d1");

    JsonNode groups = JSON.readTree(run("ls", "--json", "/workflow/").out).get("groups");
    assertThat(groups.get("/workflow/a").asInt()).isEqualTo(1);
    assertThat(groups.get("/workflow/b").asInt()).isEqualTo(1);
  }

  @Test
  void aMissingTokenExitsOne() {
    Result missing = run("cat", "/no/such/token");
    assertThat(missing.code).isEqualTo(1);
    assertThat(missing.err).contains("no token named /no/such/token");
    assertThat(run("rm", "--yes", "/no/such/token").code).isEqualTo(1);
  }

  @Test
  void updateTakesIsoTimesAndHasHelp() {
    Result inserted =
        run("update", "-n", "/lease", "-o", "worker_1", "-t", "2030-03-17T17:46:40Z", "-d", "x");
    assertThat(inserted.code).as(inserted.err).isZero();
    assertThat(expirationOf("/lease")).isEqualTo(1_900_000_000L);

    Result offset = run("update", "-n", "/lease2", "-o", "w", "-t", "2030-03-17T18:46:40+01:00");
    assertThat(offset.code).as(offset.err).isZero();
    assertThat(expirationOf("/lease2")).isEqualTo(1_900_000_000L);

    Result bad = run("update", "-n", "/x", "-o", "w", "-t", "tomorrow");
    assertThat(bad.code).isEqualTo(2);
    assertThat(bad.err).contains("'tomorrow' is not a time", "ISO-8601");

    Result help = run("update", "--help");
    assertThat(help.code).isZero();
    assertThat(help.out)
        .contains("Usage: tokens update", "--expiration_time", "ISO-8601", "--version");
  }

  private long expirationOf(String name) {
    return master.query(dev.flipper.token.Query.prefix(name)).stream()
        .filter(t -> t.name().equals(name))
        .findFirst()
        .orElseThrow()
        .expirationTime();
  }

  private Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    TokenTool tool =
        new TokenTool(
            (host, port) -> TokenMasterClient.builder(host, port).build(),
            new BufferedReader(new StringReader("")));
    CommandLine line = TokenTool.commandLine(tool);
    line.setOut(new PrintWriter(out, true));
    line.setErr(new PrintWriter(err, true));
    String[] all = new String[args.length + 4];
    all[0] = "-s";
    all[1] = "127.0.0.1";
    all[2] = "-p";
    all[3] = String.valueOf(server.port());
    System.arraycopy(args, 0, all, 4, args.length);
    return new Result(line.execute(all), out.toString(), err.toString());
  }

  private record Result(int code, String out, String err) {}
}
