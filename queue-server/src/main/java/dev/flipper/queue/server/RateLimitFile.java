package dev.flipper.queue.server;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses PinLater's rate-limit file: {@code {"queues": [{"name": "mail", "queueConfig":
 * {"maxJobsPerSecond": 100}}]}}. Unknown keys inside {@code queueConfig} are ignored (room for
 * other per-queue settings); unknown keys elsewhere are errors, so a typo does not silently disable
 * a limit. Stateless.
 */
public final class RateLimitFile {
  private static final ObjectMapper JSON =
      new ObjectMapper()
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

  private RateLimitFile() {}

  /** Queue name to maxJobsPerSecond; empty when the file lists no queue. */
  public static Map<String, Double> parse(String json) {
    Root root;
    try {
      root = JSON.readValue(json, Root.class);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(e.getOriginalMessage() + locationOf(e));
    }
    Map<String, Double> limits = new LinkedHashMap<>();
    if (root == null || root.queues() == null) {
      return limits;
    }
    for (int i = 0; i < root.queues().size(); i++) {
      Entry entry = root.queues().get(i);
      String where = "queues[" + i + "]";
      if (entry == null || entry.name() == null || entry.name().isBlank()) {
        throw new IllegalArgumentException(where + " needs a \"name\"");
      }
      if (entry.queueConfig() == null || entry.queueConfig().maxJobsPerSecond() == null) {
        throw new IllegalArgumentException(
            where
                + " (queue "
                + entry.name()
                + ") needs \"queueConfig\": {\"maxJobsPerSecond\": <jobs per second, 0 pauses the queue>}");
      }
      double rate = entry.queueConfig().maxJobsPerSecond();
      if (!(rate >= 0) || Double.isInfinite(rate)) {
        throw new IllegalArgumentException(
            where
                + " (queue "
                + entry.name()
                + "): maxJobsPerSecond must be a finite number >= 0, was "
                + rate);
      }
      if (limits.put(entry.name(), rate) != null) {
        throw new IllegalArgumentException(where + ": queue " + entry.name() + " is listed twice");
      }
    }
    return limits;
  }

  private static String locationOf(JsonProcessingException e) {
    return e.getLocation() == null
        ? ""
        : " (line "
            + e.getLocation().getLineNr()
            + ", column "
            + e.getLocation().getColumnNr()
            + ")";
  }

  private record Root(List<Entry> queues) {}

  private record Entry(String name, QueueConfig queueConfig) {}

  @JsonIgnoreProperties(ignoreUnknown = true)
  private record QueueConfig(Double maxJobsPerSecond) {}
}
