package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The help of every command and subcommand: each summary (the line a parent's command list shows)
 * is one whole sentence, every description paragraph ends a sentence (picocli wraps paragraphs, so
 * a sentence split over two elements shows as a ragged break), and no line of the help is wider
 * than the terminal.
 */
class HelpTextTest {
  private static final int WIDTH = 100;

  @Test
  void everySummaryIsOneWholeSentence() {
    List<String> problems = new ArrayList<>();
    for (CommandSpec spec : allCommands()) {
      String[] description = spec.usageMessage().description();
      if (description.length == 0) {
        problems.add(spec.qualifiedName() + ": no description");
        continue;
      }
      String summary = description[0];
      if (!summary.endsWith(".")
          || summary.length() > 100
          || summary.matches(".*[a-z)]\\. [A-Z].*")) {
        problems.add(spec.qualifiedName() + ": summary is not one short sentence: " + summary);
      }
      for (String paragraph : description) {
        if (!(paragraph.endsWith(".")
            || paragraph.endsWith(":")
            || paragraph.endsWith(")")
            || paragraph.isEmpty())) {
          problems.add(spec.qualifiedName() + ": paragraph ends mid-sentence: " + paragraph);
        }
      }
    }
    assertThat(problems).isEmpty();
  }

  @Test
  void noHelpLineIsWiderThanTheTerminal() {
    List<String> problems = new ArrayList<>();
    for (CommandSpec spec : allCommands()) {
      spec.usageMessage().width(WIDTH).autoWidth(false);
      String help = spec.commandLine().getUsageMessage(CommandLine.Help.Ansi.OFF);
      help.lines()
          .filter(line -> line.length() > WIDTH)
          .forEach(
              line ->
                  problems.add(spec.qualifiedName() + ": " + line.length() + " columns: " + line));
    }
    assertThat(problems).isEmpty();
  }

  @Test
  void everyJobDescriptorInTheHelpIsOneTheToolAccepts() {
    java.util.regex.Pattern descriptor =
        java.util.regex.Pattern.compile("\\b[a-z_]+:s\\d+:p?\\d+:\\d+\\b");
    List<String> examples = new ArrayList<>();
    for (CommandSpec spec : allCommands()) {
      spec.usageMessage().width(1000).autoWidth(false); // no wrapping inside a descriptor
      descriptor
          .matcher(spec.commandLine().getUsageMessage(CommandLine.Help.Ansi.OFF))
          .results()
          .forEach(m -> examples.add(m.group()));
    }
    assertThat(examples).as("descriptors in the help").isNotEmpty();
    for (String example : examples) {
      assertThatCode(() -> dev.flipper.queue.JobDescriptor.parse(example))
          .as(example)
          .doesNotThrowAnyException();
    }
  }

  private static List<CommandSpec> allCommands() {
    List<CommandSpec> all = new ArrayList<>();
    collect(Launcher.fullCommandLine().getCommandSpec(), all);
    return all;
  }

  private static void collect(CommandSpec spec, List<CommandSpec> all) {
    all.add(spec);
    spec.subcommands().values().stream()
        .map(CommandLine::getCommandSpec)
        .distinct()
        .forEach(s -> collect(s, all));
  }
}
