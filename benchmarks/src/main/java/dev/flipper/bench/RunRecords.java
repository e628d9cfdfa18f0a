package dev.flipper.bench;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@link FaultWorker} record files, read as they grow: which job numbers ran, under which
 * descriptors, and which runs came after a confirmed ack of the same job. Not thread-safe.
 */
final class RunRecords {
  private final Map<Path, Long> offsets = new LinkedHashMap<>();
  private final BitSet numbersRun = new BitSet();
  private final Map<String, Long> firstAck = new HashMap<>();
  private final Map<String, List<Long>> runTimes = new HashMap<>();
  private final Set<String> descriptors = new HashSet<>();
  private long runs;
  private long armedAfter = Long.MAX_VALUE;
  private Long firstAfter;
  private final Map<Path, Long> firstRunOfFile = new HashMap<>();

  void watch(Path file) {
    offsets.putIfAbsent(file, 0L);
  }

  /** Reads every complete line appended since the last call. */
  void poll() throws IOException {
    for (Map.Entry<Path, Long> e : offsets.entrySet()) {
      Path file = e.getKey();
      if (!Files.exists(file) || Files.size(file) == e.getValue()) {
        continue;
      }
      try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
        long from = e.getValue();
        byte[] bytes = new byte[(int) (in.length() - from)];
        in.seek(from);
        in.readFully(bytes);
        int lastNewline = -1;
        for (int i = bytes.length - 1; i >= 0; i--) {
          if (bytes[i] == '\n') {
            lastNewline = i;
            break;
          }
        }
        if (lastNewline < 0) {
          continue;
        }
        for (String line : new String(bytes, 0, lastNewline, StandardCharsets.UTF_8).split("\n")) {
          parse(file, line);
        }
        e.setValue(from + lastNewline + 1);
      }
    }
  }

  private void parse(Path file, String line) {
    String[] f = line.split(" ");
    long at = Long.parseLong(f[1]);
    if (f[0].equals("R")) {
      runs++;
      if (firstAfter == null && at > armedAfter) {
        firstAfter = at;
      }
      firstRunOfFile.putIfAbsent(file, at);
      numbersRun.set(Integer.parseInt(f[2]));
      descriptors.add(f[3]);
      runTimes.computeIfAbsent(f[3], k -> new java.util.ArrayList<>(1)).add(at);
    } else {
      firstAck.merge(f[2], at, Math::min);
    }
  }

  int distinctNumbersRun() {
    return numbersRun.cardinality();
  }

  int lost(int jobs) {
    return jobs - numbersRun.get(0, jobs).cardinality();
  }

  long runs() {
    return runs;
  }

  /** Runs of a job beyond its first (a claim that timed out, an ack that never arrived). */
  long reruns() {
    return runs - descriptors.size();
  }

  /** Jobs enqueued twice: the enqueue's reply was lost and the producer retried. */
  long doubleEnqueues() {
    return descriptors.size() - numbersRun.cardinality();
  }

  /** Runs that started after the job's success ack had been confirmed to its worker. */
  long runsAfterConfirmedAck() {
    long n = 0;
    for (Map.Entry<String, List<Long>> e : runTimes.entrySet()) {
      Long acked = firstAck.get(e.getKey());
      if (acked != null) {
        n += e.getValue().stream().filter(t -> t > acked).count();
      }
    }
    return n;
  }

  /** Starts watching for the first run recorded after {@code epochMillis}. */
  void armAfter(long epochMillis) {
    armedAfter = epochMillis;
    firstAfter = null;
  }

  /** The first run after the armed moment, or null. */
  Long firstRunAfterArmed() {
    return firstAfter;
  }

  Long firstRunOf(Path file) {
    return firstRunOfFile.get(file);
  }
}
