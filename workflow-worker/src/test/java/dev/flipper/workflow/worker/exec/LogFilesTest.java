package dev.flipper.workflow.worker.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogFilesTest {
  @TempDir Path tmp;
  private Path root;
  private LogFiles logs;

  @BeforeEach
  void setUp() throws IOException {
    root = tmp.resolve("logs");
    logs = new LogFiles(root);
  }

  @Test
  void laysOutOneDirectoryPerInstanceAndOneFilePerAttemptAndStream() throws IOException {
    LogFiles.AttemptLogs a = logs.create("etl", "1700000000123", "extract", 2);

    assertThat(a.stdout()).isEqualTo(logs.root().resolve("etl/1700000000123/extract.2.stdout"));
    assertThat(a.stderr()).isEqualTo(logs.root().resolve("etl/1700000000123/extract.2.stderr"));
    assertThat(a.stdout().getParent()).isDirectory();
    assertThat(logs.relative(a.stdout())).isEqualTo("etl/1700000000123/extract.2.stdout");
  }

  @Test
  void safeNamesCannotLeaveTheirDirectoryAndStayDistinct() {
    assertThat(LogFiles.safeName("job_1-a.b")).isEqualTo("job_1-a.b");
    assertThat(LogFiles.safeName("..")).isEqualTo("%2E.");
    assertThat(LogFiles.safeName(".hidden")).isEqualTo("%2Ehidden");
    assertThat(LogFiles.safeName("a/b")).isEqualTo("a%2Fb");
    assertThat(LogFiles.safeName("a%2Fb")).isEqualTo("a%252Fb");
    assertThat(LogFiles.safeName("ü b")).isEqualTo("%C3%BC%20b");
    assertThatThrownBy(() -> LogFiles.safeName("")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void readsARangeAndTellsWhereToContinue() throws IOException {
    Path log = write("wf/1/job.1.stdout", "0123456789");

    LogFiles.Chunk first = logs.read("wf/1/job.1.stdout", 0, 4);
    assertThat(new String(first.data(), StandardCharsets.UTF_8)).isEqualTo("0123");
    assertThat(first.nextOffset()).isEqualTo(4);
    assertThat(first.size()).isEqualTo(10);

    Files.writeString(log, "abc", java.nio.file.StandardOpenOption.APPEND);
    LogFiles.Chunk next = logs.read("wf/1/job.1.stdout", first.nextOffset(), 1000);
    assertThat(new String(next.data(), StandardCharsets.UTF_8)).isEqualTo("456789abc");
    assertThat(next.nextOffset()).isEqualTo(13);

    LogFiles.Chunk atEnd = logs.read("wf/1/job.1.stdout", 13, 1000);
    assertThat(atEnd.data()).isEmpty();
    assertThat(atEnd.nextOffset()).isEqualTo(13);
    assertThat(logs.read("wf/1/job.1.stdout", 99, 10).nextOffset()).isEqualTo(13);
  }

  @Test
  void aNegativeOffsetReadsTheTail() throws IOException {
    write("wf/1/job.1.stderr", "0123456789");

    LogFiles.Chunk tail = logs.read("wf/1/job.1.stderr", -3, 1000);
    assertThat(new String(tail.data(), StandardCharsets.UTF_8)).isEqualTo("789");
    assertThat(tail.offset()).isEqualTo(7);
    assertThat(tail.nextOffset()).isEqualTo(10);
    assertThat(logs.read("wf/1/job.1.stderr", -100, 1000).offset()).isZero();
  }

  @Test
  void streamsAWholeFile() throws IOException {
    write("wf/1/job.1.stdout", "line 1\nline 2\n");

    try (InputStream in = logs.open("wf/1/job.1.stdout")) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
          .isEqualTo("line 1\nline 2\n");
    }
  }

  @Test
  void rejectsPathsOutsideTheLogDirectory() throws IOException {
    Files.writeString(tmp.resolve("secret"), "no");
    write("wf/1/job.1.stdout", "ok");

    for (String bad :
        new String[] {
          "../secret",
          "wf/../../secret",
          "/etc/passwd",
          "",
          "wf//1/job.1.stdout",
          "./wf/1/job.1.stdout",
          "wf/1/./job.1.stdout",
          "wf\\1",
          "wf/1/job\u0000"
        }) {
      assertThatThrownBy(() -> logs.read(bad, 0, 10))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> logs.open(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> logs.read("wf/1", 0, 10))
        .isInstanceOf(NoSuchFileException.class)
        .hasMessage("no such log 'wf/1'");
    assertThatThrownBy(() -> logs.read("wf/1/none", 0, 10)).isInstanceOf(NoSuchFileException.class);
    assertThatThrownBy(() -> logs.read("wf/1/job.1.stdout", 0, LogFiles.MAX_CHUNK + 1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void servesNoLinkSymbolicOrHardEvenOneThatStaysInside() throws IOException {
    Path secret = tmp.resolve("secret");
    Files.writeString(secret, "no");
    write("wf/1/job.1.stdout", "inside");
    Files.createDirectories(root.resolve("wf"));
    Files.createSymbolicLink(root.resolve("wf/link.stdout"), secret);
    Files.createSymbolicLink(root.resolve("out"), tmp);
    Files.createLink(root.resolve("wf/hard.stdout"), secret); // what a job can plant
    Files.createSymbolicLink(root.resolve("alias"), root.resolve("wf"));

    for (String link :
        new String[] {"wf/link.stdout", "out/secret", "wf/hard.stdout", "alias/1/job.1.stdout"}) {
      assertThatThrownBy(() -> logs.read(link, 0, 10))
          .as(link)
          .isInstanceOf(NoSuchFileException.class)
          .hasMessage("no such log '" + link + "'");
      assertThatThrownBy(() -> logs.open(link).readAllBytes())
          .as(link)
          .isInstanceOf(NoSuchFileException.class);
    }
    assertThat(logs.read("wf/1/job.1.stdout", 0, 100).data())
        .asString(StandardCharsets.UTF_8)
        .isEqualTo("inside");
  }

  @Test
  void aDirectorySwappedForALinkWhileLogsAreReadServesNothingFromOutside() throws Exception {
    write("wf/1/job.1.stdout", "inside");
    Files.createDirectories(tmp.resolve("evil"));
    Files.writeString(tmp.resolve("evil/job.1.stdout"), "secret");
    Path dir = root.resolve("wf/1");
    Path aside = root.resolve("wf/1.aside");
    AtomicBoolean done = new AtomicBoolean();
    Thread swapper =
        new Thread(
            () -> {
              try {
                while (!done.get()) { // what a job can do to its own log directory
                  Files.move(dir, aside);
                  Files.createSymbolicLink(dir, tmp.resolve("evil"));
                  Files.delete(dir);
                  Files.move(aside, dir);
                }
              } catch (IOException e) {
                throw new IllegalStateException(e);
              }
            });
    swapper.start();
    int leaked = 0;
    try {
      for (int i = 0; i < 20_000; i++) {
        try {
          if (new String(logs.read("wf/1/job.1.stdout", 0, 100).data(), StandardCharsets.UTF_8)
              .equals("secret")) {
            leaked++;
          }
        } catch (NoSuchFileException | IllegalArgumentException refused) {
          // refused, or between swaps
        }
      }
    } finally {
      done.set(true);
      swapper.join();
    }
    assertThat(leaked).as("reads that served the file outside").isZero();
  }

  @Test
  void errorsNeverNameTheLogDirectory() {
    for (String bad : new String[] {"../secret", "wf/1/none", "wf"}) {
      assertThatThrownBy(() -> logs.read(bad, 0, 10))
          .as(bad)
          .satisfies(e -> assertThat(e.getMessage()).doesNotContain(tmp.toString()));
    }
  }

  private Path write(String relative, String content) throws IOException {
    Path p = root.resolve(relative);
    Files.createDirectories(p.getParent());
    Files.writeString(p, content);
    return p;
  }
}
