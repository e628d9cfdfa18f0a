package dev.flipper.admin.metrics;

import dev.flipper.launcher.VersionProvider;
import io.prometheus.client.Collector;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;

/**
 * JVM and process metrics under the names Prometheus' own Java client uses ({@code process_*},
 * {@code jvm_*}), so existing dashboards work, read from the platform MXBeans on every scrape; plus
 * {@code flipper_build_info}. Thread-safe.
 */
public final class JvmMetrics extends Collector {
  private static final double MILLIS_PER_SECOND = 1e3;

  @Override
  public List<MetricFamilySamples> collect() {
    List<MetricFamilySamples> all = new ArrayList<>();
    var runtime = ManagementFactory.getRuntimeMXBean();
    var os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
      all.add(
          one(
              "process_cpu_seconds",
              Type.COUNTER,
              "CPU time the process used, user and system, in seconds.",
              "_total",
              sun.getProcessCpuTime() / 1e9));
    }
    if (os instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
      all.add(
          one(
              "process_open_fds",
              Type.GAUGE,
              "File descriptors the process has open.",
              "",
              unix.getOpenFileDescriptorCount()));
      all.add(
          one(
              "process_max_fds",
              Type.GAUGE,
              "Most file descriptors the process may open.",
              "",
              unix.getMaxFileDescriptorCount()));
    }
    all.add(
        one(
            "process_start_time_seconds",
            Type.GAUGE,
            "When the process started, in seconds since the epoch.",
            "",
            runtime.getStartTime() / MILLIS_PER_SECOND));

    var memory = ManagementFactory.getMemoryMXBean();
    List<MetricFamilySamples.Sample> used = new ArrayList<>();
    List<MetricFamilySamples.Sample> committed = new ArrayList<>();
    addArea(used, committed, "heap", memory.getHeapMemoryUsage());
    addArea(used, committed, "nonheap", memory.getNonHeapMemoryUsage());
    all.add(
        new MetricFamilySamples(
            "jvm_memory_bytes_used", Type.GAUGE, "JVM memory in use, by area.", used));
    all.add(
        new MetricFamilySamples(
            "jvm_memory_bytes_committed",
            Type.GAUGE,
            "JVM memory the operating system has committed, by area.",
            committed));
    long heapMax = memory.getHeapMemoryUsage().getMax();
    if (heapMax >= 0) {
      all.add(
          new MetricFamilySamples(
              "jvm_memory_bytes_max",
              Type.GAUGE,
              "Most memory the JVM may use, by area.",
              List.of(
                  new MetricFamilySamples.Sample(
                      "jvm_memory_bytes_max", List.of("area"), List.of("heap"), heapMax))));
    }

    var threads = ManagementFactory.getThreadMXBean();
    all.add(
        one(
            "jvm_threads_current",
            Type.GAUGE,
            "Live JVM threads, daemon or not.",
            "",
            threads.getThreadCount()));
    all.add(
        one(
            "jvm_threads_daemon",
            Type.GAUGE,
            "Live JVM daemon threads.",
            "",
            threads.getDaemonThreadCount()));
    all.add(
        one(
            "jvm_classes_currently_loaded",
            Type.GAUGE,
            "Classes loaded in the JVM now.",
            "",
            ManagementFactory.getClassLoadingMXBean().getLoadedClassCount()));

    List<MetricFamilySamples.Sample> collections = new ArrayList<>();
    List<MetricFamilySamples.Sample> gcSeconds = new ArrayList<>();
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      List<String> label = List.of(gc.getName());
      collections.add(
          new MetricFamilySamples.Sample(
              "jvm_gc_collections_total",
              List.of("gc"),
              label,
              Math.max(0, gc.getCollectionCount())));
      gcSeconds.add(
          new MetricFamilySamples.Sample(
              "jvm_gc_collection_seconds_total",
              List.of("gc"),
              label,
              Math.max(0, gc.getCollectionTime()) / MILLIS_PER_SECOND));
    }
    all.add(
        new MetricFamilySamples(
            "jvm_gc_collections", Type.COUNTER, "Garbage collections, by collector.", collections));
    all.add(
        new MetricFamilySamples(
            "jvm_gc_collection_seconds",
            Type.COUNTER,
            "Time spent in garbage collection, by collector, in seconds.",
            gcSeconds));

    all.add(
        new MetricFamilySamples(
            "flipper_build_info",
            Type.GAUGE,
            "Always 1; the labels name the Flipper and Java versions of this process.",
            List.of(
                new MetricFamilySamples.Sample(
                    "flipper_build_info",
                    List.of("version", "java_version"),
                    List.of(VersionProvider.version(), System.getProperty("java.version")),
                    1))));
    return all;
  }

  private static void addArea(
      List<MetricFamilySamples.Sample> used,
      List<MetricFamilySamples.Sample> committed,
      String area,
      MemoryUsage usage) {
    used.add(
        new MetricFamilySamples.Sample(
            "jvm_memory_bytes_used", List.of("area"), List.of(area), usage.getUsed()));
    committed.add(
        new MetricFamilySamples.Sample(
            "jvm_memory_bytes_committed", List.of("area"), List.of(area), usage.getCommitted()));
  }

  private static MetricFamilySamples one(
      String name, Type type, String help, String suffix, double value) {
    return new MetricFamilySamples(
        name,
        type,
        help,
        List.of(new MetricFamilySamples.Sample(name + suffix, List.of(), List.of(), value)));
  }
}
