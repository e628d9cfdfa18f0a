package dev.flipper.workflow.master.cli;

import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenException;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.master.client.TokenMasterClient;
import dev.flipper.workflow.master.server.TokenMasterServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.BiFunction;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * The token tool, Pinball's {@code pinball_util}: list, show, remove and write tokens on a running
 * master. Run it as {@code flipper tokens [--host h] [--port p] ls|cat|rm|update ...}. Destructive
 * commands ask for confirmation unless {@code --yes} is given. {@code --json} prints ls and cat as
 * JSON. Exit codes: 0 done, 1 the master refused or failed or the named token does not exist, 2 bad
 * usage.
 */
@Command(
    name = "tokens",
    mixinStandardHelpOptions = true,
    description = "Reads and changes the tokens of a token master (Pinball's pinball_util).",
    subcommands = {
      TokenTool.Ls.class,
      TokenTool.Cat.class,
      TokenTool.Rm.class,
      TokenTool.Update.class
    },
    footer = {
      "",
      "Examples:",
      "  tokens ls /workflow/                    workflows, with token counts",
      "  tokens cat -r /workflow/wf/123/job/      every job token of an instance",
      "  tokens rm -r /workflow/wf/123/ --yes     delete an instance's tokens",
      "  tokens update -n /a -d '{\"k\":1}'          insert /a (add -v VERSION to update it)"
    })
public final class TokenTool implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = {"-s", "--host"},
      defaultValue = "localhost",
      description = "Master host (default ${DEFAULT-VALUE}).")
  String host;

  @Option(
      names = {"-p", "--port"},
      defaultValue = "" + TokenMasterServer.DEFAULT_PORT,
      description = "Master port (default ${DEFAULT-VALUE}).")
  int port;

  @Option(
      names = "--json",
      scope = CommandLine.ScopeType.INHERIT,
      description =
          "ls and cat print one JSON document (tokens with every field, times as ISO-8601 too).")
  boolean json;

  private final BiFunction<String, Integer, TokenMaster> connector;
  private final BufferedReader input;

  /** A tool that talks to the master over Thrift and reads confirmations from standard input. */
  public TokenTool() {
    this(
        (h, p) -> TokenMasterClient.builder(h, p).connectAttempts(3).build(),
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)));
  }

  /** A tool over any master (for tests and embedding); {@code input} answers confirmations. */
  public TokenTool(BiFunction<String, Integer, TokenMaster> connector, BufferedReader input) {
    this.connector = connector;
    this.input = input;
  }

  public static void main(String[] args) {
    System.exit(commandLine(new TokenTool()).execute(args));
  }

  /**
   * The command line with Flipper's error handling: TokenExceptions print one line and exit with 1.
   */
  public static CommandLine commandLine(TokenTool tool) {
    CommandLine line = new CommandLine(tool);
    line.setExecutionExceptionHandler(
        (e, cmd, parsed) -> {
          if (e instanceof TokenException token) {
            cmd.getErr().println("error: " + token.errorCode() + ": " + token.getMessage());
            return 1;
          }
          throw e;
        });
    return line;
  }

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getOut());
    return 2;
  }

  /** Runs the action on a master connected for this command, closing it afterwards. */
  int withMaster(java.util.function.Function<TokenMaster, Integer> action) {
    TokenMaster master = connector.apply(host, port);
    try {
      return action.apply(master);
    } finally {
      if (master instanceof AutoCloseable closeable) {
        try {
          closeable.close();
        } catch (Exception e) {
          spec.commandLine().getErr().println("warning: closing the connection failed: " + e);
        }
      }
    }
  }

  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  boolean confirm(String question) {
    out().print(question + " [y/N] ");
    out().flush();
    try {
      String answer = input.readLine();
      return answer != null && List.of("y", "yes").contains(answer.trim().toLowerCase(Locale.ROOT));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The token itself, or with {@code recursive} every token under the prefix (name order). */
  static List<Token> tokens(TokenMaster master, String prefix, boolean recursive) {
    List<Token> matches = master.query(Query.prefix(prefix));
    return recursive ? matches : matches.stream().filter(t -> t.name().equals(prefix)).toList();
  }

  /** One line per token: every field, the lease end as a UTC time too. */
  static String describe(Token token) {
    String expiration =
        token.expirationTime() == 0
            ? "0"
            : token.expirationTime()
                + " ("
                + (token.expirationTime() == Long.MAX_VALUE
                    ? "forever"
                    : Instant.ofEpochSecond(
                            Math.min(token.expirationTime(), Instant.MAX.getEpochSecond()))
                        .toString())
                + ")";
    return "Token(name="
        + token.name()
        + ", version="
        + token.version()
        + ", owner="
        + token.owner()
        + ", expirationTime="
        + expiration
        + ", priority="
        + token.priority()
        + ", data="
        + token.data()
        + ")";
  }

  @Command(
      name = "ls",
      mixinStandardHelpOptions = true,
      description =
          "Lists the children of a name prefix with their token counts (-r: every token name).")
  static final class Ls implements Callable<Integer> {
    @ParentCommand TokenTool tool;

    @Option(
        names = {"-r", "--recursive"},
        description = "List every token under the prefix, not just children.")
    boolean recursive;

    @Parameters(index = "0", paramLabel = "PREFIX", description = "Name prefix, e.g. /workflow/.")
    String prefix;

    @Override
    public Integer call() {
      return tool.withMaster(
          master -> {
            Map<String, Integer> counts = master.group(prefix, recursive ? null : "/");
            if (tool.json) {
              tool.out().println(TokenJson.groups(counts));
              return 0;
            }
            tool.out().println("total " + counts.size());
            counts.forEach(
                (group, count) -> tool.out().println(group + " [" + count + " token(s)]"));
            return 0;
          });
    }
  }

  @Command(
      name = "cat",
      mixinStandardHelpOptions = true,
      description = "Shows a token (-r: every token under the prefix) with all its fields.")
  static final class Cat implements Callable<Integer> {
    @ParentCommand TokenTool tool;

    @Option(
        names = {"-r", "--recursive"},
        description = "Show every token whose name starts with NAME.")
    boolean recursive;

    @Parameters(index = "0", paramLabel = "NAME", description = "Token name (a prefix with -r).")
    String name;

    @Override
    public Integer call() {
      return tool.withMaster(
          master -> {
            List<Token> tokens = tokens(master, name, recursive);
            if (tokens.isEmpty() && !recursive) {
              tool.spec
                  .commandLine()
                  .getErr()
                  .println("no token named " + name + " (-r shows every token under a prefix)");
              return 1;
            }
            if (tool.json) {
              tool.out().println(TokenJson.tokens(tokens));
              return 0;
            }
            tool.out().println("total " + tokens.size());
            tokens.forEach(t -> tool.out().println(describe(t)));
            return 0;
          });
    }
  }

  @Command(
      name = "rm",
      mixinStandardHelpOptions = true,
      description =
          "Removes a token (-r: every token under the prefix), all in one atomic change, after asking.")
  static final class Rm implements Callable<Integer> {
    @ParentCommand TokenTool tool;

    @Option(
        names = {"-r", "--recursive"},
        description = "Remove every token whose name starts with NAME.")
    boolean recursive;

    @Option(
        names = {"-y", "--yes", "-f", "--force"},
        description = "Do not ask for confirmation.")
    boolean yes;

    @Parameters(index = "0", paramLabel = "NAME", description = "Token name (a prefix with -r).")
    String name;

    @Override
    public Integer call() {
      return tool.withMaster(
          master -> {
            List<Token> tokens = tokens(master, name, recursive);
            if (tokens.isEmpty()) {
              tool.out().println("no tokens found");
              tool.out().println("removed 0 token(s)");
              return recursive
                  ? 0
                  : 1; // a named token that is not there is an error; an empty subtree is not
            }
            tool.out().println("removing:");
            tokens.forEach(t -> tool.out().println("\t" + t.name()));
            if (!yes && !tool.confirm("remove " + tokens.size() + " token(s)?")) {
              tool.out().println("removed 0 token(s)");
              return 0;
            }
            master.modify(new ModifyParams(List.of(), tokens));
            tool.out().println("removed " + tokens.size() + " token(s)");
            return 0;
          });
    }
  }

  @Command(
      name = "update",
      description = {
        "Inserts a token, or with -v replaces the token of that version (every field is written).",
        "Replacing an existing token asks for confirmation unless --yes is given."
      })
  static final class Update implements Callable<Integer> {
    @ParentCommand TokenTool tool;

    // Not mixinStandardHelpOptions: its --version would clash with -v/--version (the token's
    // version).
    @Option(
        names = {"-h", "--help"},
        usageHelp = true,
        description = "Show this help message and exit.")
    boolean help;

    @Option(
        names = {"-n", "--name"},
        required = true,
        description = "Token name.")
    String name;

    @Option(
        names = {"-v", "--version"},
        description = "Current version: update instead of insert.")
    Long version;

    @Option(
        names = {"-o", "--owner"},
        description = "Owner; needs --expiration_time.")
    String owner;

    @Option(
        names = {"-t", "--expiration_time"},
        converter = EpochSecondsConverter.class,
        paramLabel = "TIME",
        description =
            "Lease end: epoch seconds or an ISO-8601 time such as 2030-01-31T08:00:00Z; needs --owner.")
    Long expirationTime;

    @Option(
        names = {"-i", "--priority"},
        defaultValue = "0",
        description = "Priority (default ${DEFAULT-VALUE}).")
    double priority;

    @Option(
        names = {"-d", "--data"},
        description = "Data.")
    String data;

    @Option(
        names = {"-y", "--yes", "-f", "--force"},
        description = "Do not ask before replacing a token.")
    boolean yes;

    @Override
    public Integer call() {
      if ((owner == null) != (expirationTime == null)) {
        throw new CommandLine.ParameterException(
            tool.spec.commandLine(),
            "--owner and --expiration_time go together: set both or neither");
      }
      Token token =
          new Token(
              version == null ? Token.NO_VERSION : version,
              name,
              owner,
              expirationTime == null ? 0 : expirationTime,
              priority,
              data);
      return tool.withMaster(
          master -> {
            if (token.hasVersion()
                && !yes
                && !tool.confirm(
                    "replace every field of " + name + " (version " + version + ")?")) {
              tool.out().println("updated 0 tokens");
              return 0;
            }
            Token written = master.modify(ModifyParams.updating(token)).get(0);
            tool.out().println((token.hasVersion() ? "updated " : "inserted ") + describe(written));
            tool.out().println("updated 1 token");
            return 0;
          });
    }
  }
}
