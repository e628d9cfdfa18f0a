package dev.flipper.workflow.worker.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
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
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a file");
    assertThatThrownBy(() -> logs.read("wf/1/none", 0, 10)).isInstanceOf(NoSuchFileException.class);
    assertThatThrownBy(() -> logs.read("wf/1/job.1.stdout", 0, LogFiles.MAX_CHUNK + 1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void rejectsSymbolicLinksThatPointOutside() throws IOException {
    Files.writeString(tmp.resolve("secret"), "no");
    Files.createDirectories(root.resolve("wf"));
    Files.createSymbolicLink(root.resolve("wf/link.stdout"), tmp.resolve("secret"));
    Files.createSymbolicLink(root.resolve("out"), tmp);

    assertThatThrownBy(() -> logs.read("wf/link.stdout", 0, 10))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> logs.read("out/secret", 0, 10))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void followsSymbolicLinksThatStayInside() throws IOException {
    write("wf/1/job.1.stdout", "inside");
    Files.createSymbolicLink(root.resolve("alias"), root.resolve("wf"));

    assertThat(logs.read("alias/1/job.1.stdout", 0, 100).data())
        .asString(StandardCharsets.UTF_8)
        .isEqualTo("inside");
  }

  private Path write(String relative, String content) throws IOException {
    Path p = root.resolve(relative);
    Files.createDirectories(p.getParent());
    Files.writeString(p, content);
    return p;
  }
}
