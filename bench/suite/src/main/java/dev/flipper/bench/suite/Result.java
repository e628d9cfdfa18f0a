package dev.flipper.bench.suite;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * What one phase measured, printed by the harness as one line {@code RESULT {json}} and read back by the suite.
 * {@code rate} is jobs per second: enqueued for the enqueue phases, run for drain, mixed and latency.
 *
 * @param phase enqueue-single, enqueue-batch, drain, drain-worker, mixed or latency-NN (NN = % of the drain rate)
 * @param jobs jobs enqueued or run in the measured time
 * @param seconds the measured time
 * @param enqueueRate for mixed and latency: jobs enqueued per second meanwhile
 * @param left for drain, mixed and latency: jobs still waiting at the end
 * @param latencyMs for latency: enqueue-to-start p50, p99, p999 in milliseconds
 * @param cpuSeconds CPU seconds per process (client, server, store) spent in the measured time
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record Result(
    String system,
    String phase,
    long jobs,
    double seconds,
    double rate,
    Double enqueueRate,
    Long left,
    Map<String, Double> latencyMs,
    Map<String, Double> cpuSeconds) {}
