package dev.flipper.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's Embedding section: its Java program compiles against the modules as they are, and
 * runs.
 */
class ReadmeEmbeddingTest {
  private static final Path README = Path.of("").toAbsolutePath().getParent().resolve("README.md");

  @TempDir Path dir;

  @Test
  void theEmbeddingProgramCompilesAndRunsBothJobs() throws Exception {
    String source = embeddingProgram(Files.readString(README));
    Path file =
        Files.writeString(
            Files.createDirectories(dir.resolve("src")).resolve("ShopApp.java"), source);
    Path classes = Files.createDirectories(dir.resolve("classes"));

    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    StringWriter diagnostics = new StringWriter();
    String classpath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    boolean compiled =
        compiler
            .getTask(
                diagnostics,
                null,
                null,
                List.of("-classpath", classpath, "-d", classes.toString(), "-proc:none"),
                null,
                compiler
                    .getStandardFileManager(null, null, StandardCharsets.UTF_8)
                    .getJavaFileObjects(file.toFile()))
            .call();
    assertThat(compiled).as("javac on the README's embedding program:\n%s", diagnostics).isTrue();

    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream original = System.out;
    try (URLClassLoader loader =
        new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
      System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
      assertTimeoutPreemptively(
          Duration.ofSeconds(60),
          () ->
              loader
                  .loadClass("ShopApp")
                  .getMethod("main", String[].class)
                  .invoke(null, (Object) new String[] {dir.resolve("data").toString()}));
    } finally {
      System.setOut(original);
    }
    assertThat(printed.toString(StandardCharsets.UTF_8))
        .contains("sending: welcome ada@example.com", "sending: your order is confirmed");
  }

  /** The first java code block after the "## Embedding" heading. */
  static String embeddingProgram(String readme) {
    int section = readme.indexOf("## Embedding");
    assertThat(section).as("README has an Embedding section").isNotNegative();
    Matcher block = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(readme);
    assertThat(block.find(section)).as("a java block in the Embedding section").isTrue();
    return block.group(1);
  }
}
