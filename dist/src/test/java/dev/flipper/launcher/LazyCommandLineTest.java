package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The launcher builds only the picocli model of the command it runs (issue 26). */
class LazyCommandLineTest {
  @Test
  void aLeafOfWorkflowGetsOnlyItsOwnModel() {
    CommandLine root = Launcher.commandLine(new String[] {"workflow", "status", "--json"});
    assertThat(root.getSubcommands()).containsOnlyKeys("workflow");
    assertThat(root.getSubcommands().get("workflow").getSubcommands()).containsOnlyKeys("status");
  }

  @Test
  void anAliasGetsItsCommand() {
    CommandLine root = Launcher.commandLine(new String[] {"workflow", "reschedule", "x.yaml"});
    assertThat(root.getSubcommands().get("workflow").getSubcommands())
        .containsOnlyKeys("apply", "reschedule");
  }

  @Test
  void aToolGetsOnlyItsModelAndTheVersionNone() {
    assertThat(
            Launcher.commandLine(new String[] {"queue-tool", "--mode", "lookup"}).getSubcommands())
        .containsOnlyKeys("queue-tool");
    assertThat(Launcher.commandLine(new String[] {"--version"}).getSubcommands()).isEmpty();
  }

  @Test
  void helpAndUnknownCommandsGetTheWholeTree() {
    for (String[] args :
        new String[][] {{}, {"--help"}, {"nope"}, {"-c", "f.yaml", "-m", "queue"}}) {
      assertThat(Launcher.commandLine(args).getSubcommands().keySet())
          .containsExactlyElementsOf(Launcher.SUBCOMMANDS);
    }
    CommandLine workflow =
        Launcher.commandLine(new String[] {"workflow", "--help"}).getSubcommands().get("workflow");
    assertThat(workflow.getSubcommands().keySet())
        .containsAll(WorkflowCommand.LEAVES)
        .contains("reschedule");
  }

  @Test
  void anErrorInALeafReadsAsWithTheWholeTree() {
    String lazy = run("workflow", "status", "--bogus");
    CommandLine full = Launcher.fullCommandLine();
    StringWriter expected = new StringWriter();
    full.setErr(new PrintWriter(expected, true));
    full.setOut(new PrintWriter(new StringWriter(), true));
    full.execute("workflow", "status", "--bogus");
    assertThat(lazy).isNotEmpty().isEqualTo(expected.toString());
  }

  private static String run(String... args) {
    StringWriter err = new StringWriter();
    Launcher.execute(args, new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
    return err.toString();
  }
}
