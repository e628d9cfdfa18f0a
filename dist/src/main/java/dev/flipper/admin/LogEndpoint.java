package dev.flipper.admin;

import dev.flipper.tls.Role;
import dev.flipper.workflow.worker.exec.LogFiles;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.NoSuchFileException;

/**
 * {@code GET /logs/<path>}: the job logs a worker wrote, so the CLI and the UI read logs of workers
 * on other hosts. Paths are relative to {@code workers.logDir} and confined to it: no link,
 * symbolic or hard, serves a file from elsewhere ({@link LogFiles#openChannel}).
 *
 * <ul>
 *   <li>without parameters: the whole file ({@code Content-Length} set);
 *   <li>{@code ?offset=N&max=M}: at most M bytes (default 64 KiB, at most 1 MiB) from byte N; a
 *       negative N counts from the end ({@code -4096} = the last 4 KiB). The answer carries the
 *       bytes and the headers {@code X-Log-Offset} (where they start), {@code X-Log-Next-Offset}
 *       (where to ask next: a tail asks again from there) and {@code X-Log-Size} (the file size
 *       now).
 * </ul>
 *
 * 400 for a path that could leave the log directory, 404 "no such log" for a missing log or a link;
 * no answer names the log directory. Thread-safe.
 */
public final class LogEndpoint {
  public static final String PATH = "/logs/<path>";
  public static final String OFFSET = "X-Log-Offset";
  public static final String NEXT_OFFSET = "X-Log-Next-Offset";
  public static final String SIZE = "X-Log-Size";
  static final int DEFAULT_MAX = 64 * 1024;

  private final LogFiles logs;

  public LogEndpoint(LogFiles logs) {
    this.logs = logs;
  }

  public AdminRoute route() {
    // with TLS: the UI and people read logs; workers too (a log may link to another's)
    return new AdminRoute(PATH, this::handle)
        .onlyFor(Role.UI, Role.OPERATOR, Role.ADMIN, Role.WORKER);
  }

  private void handle(Context ctx) throws IOException {
    String path = ctx.pathParam("path");
    String offset = ctx.queryParam("offset");
    String max = ctx.queryParam("max");
    try {
      if (offset == null && max == null) {
        SeekableByteChannel log = logs.openChannel(path);
        ctx.contentType("text/plain; charset=utf-8")
            .header("Content-Length", Long.toString(log.size()))
            .result(Channels.newInputStream(log));
        return;
      }
      long from = offset == null ? 0 : Long.parseLong(offset);
      int limit = max == null ? DEFAULT_MAX : Integer.parseInt(max);
      LogFiles.Chunk chunk = logs.read(path, from, Math.min(limit, LogFiles.MAX_CHUNK));
      ctx.header(OFFSET, Long.toString(chunk.offset()))
          .header(NEXT_OFFSET, Long.toString(chunk.nextOffset()))
          .header(SIZE, Long.toString(chunk.size()))
          .contentType("application/octet-stream")
          .result(chunk.data());
    } catch (NoSuchFileException e) {
      ctx.status(HttpStatus.NOT_FOUND).result("no such log '" + path + "'\n");
    } catch (NumberFormatException e) {
      ctx.status(HttpStatus.BAD_REQUEST)
          .result("offset and max must be integers: " + e.getMessage() + "\n");
    } catch (IllegalArgumentException e) {
      ctx.status(HttpStatus.BAD_REQUEST).result(e.getMessage() + "\n");
    }
  }
}
