package dev.flipper.launcher.queuetool;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flipper.queue.JobInfo;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code --json} output of the queue tool: one compact document per call (one line, for scripts
 * and {@code jq}), times as ISO-8601 UTC text, bodies as UTF-8 text. Field order is fixed.
 * Stateless.
 */
final class ToolJson {
  private ToolJson() {}

  /** Built on the first write: without --json the tool loads no Jackson (issue 26). */
  private static final class Mapper {
    static final ObjectMapper MAPPER = new ObjectMapper();
  }

  static String write(Object value) {
    try {
      return Mapper.MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Map<String, Object> job(JobInfo info) {
    Map<String, Object> job = new LinkedHashMap<>();
    job.put("descriptor", info.descriptor().toString());
    job.put("state", info.state().name());
    job.put("priority", info.descriptor().priority());
    job.put("attemptsAllowed", info.attemptsAllowed());
    job.put("attemptsRemaining", info.attemptsRemaining());
    job.put("customStatus", info.customStatus());
    job.put("createdAt", text(info.createdAt()));
    job.put("runAfter", text(info.runAfter()));
    job.put("updatedAt", text(info.updatedAt()));
    job.put("claimDescriptor", info.claimDescriptor());
    if (info.body() != null) {
      job.put("body", new String(info.body(), StandardCharsets.UTF_8));
    }
    return job;
  }

  private static String text(Instant time) {
    return time == null ? null : time.toString();
  }
}
