package dev.flipper.workflow.engine.internal;

import dev.flipper.workflow.tokens.ExecutionData;
import dev.flipper.workflow.tokens.JobData;
import java.util.ArrayList;
import java.util.Map;

/** Opening execution records. Stateless. */
public final class Executions {
  private Executions() {}

  /**
   * Appends an open record for the next attempt and counts it; a condition keeps only its last
   * {@code maxAttempts} records (Pinball's {@code truncate_history}).
   */
  public static ExecutionData open(
      JobData data, String info, String worker, String host, long nowMillis) {
    data.executions++;
    data.attempt++;
    ExecutionData record = new ExecutionData();
    record.execution = data.executions;
    record.attempt = data.attempt;
    record.instance = data.instance;
    record.info = info;
    record.worker = worker;
    record.host = host;
    record.startMillis = nowMillis;
    record.events = new ArrayList<>(data.events);
    data.history.add(record);
    if (data.isCondition() && data.history.size() > data.maxAttempts) {
      data.history =
          new ArrayList<>(
              data.history.subList(data.history.size() - data.maxAttempts, data.history.size()));
    }
    return record;
  }

  public static void addLogs(ExecutionData record, Map<String, String> logs) {
    record.logs.putAll(logs);
  }
}
