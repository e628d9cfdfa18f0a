package dev.flipper.queue.mysql.bench;

import java.sql.SQLException;

/** One way of driving a JDBC queue in {@code flipper bench jdbc}; a worker per thread. */
public interface Workload {
  Worker worker(String source) throws SQLException;

  interface Worker extends AutoCloseable {
    int enqueue(int batch) throws SQLException;

    /** Claims up to batch jobs and acks them as succeeded; returns how many. */
    int dequeueAndAck(int batch) throws SQLException;

    /**
     * Claims up to batch jobs, acking the jobs of the previous call as succeeded in the same call;
     * returns how many were acked. The claimed jobs wait for the next call or {@link #ackPrevious}.
     */
    int dequeueAckingPrevious(int batch) throws SQLException;

    /** Acks the jobs the last {@link #dequeueAckingPrevious} claimed, if any; returns how many. */
    int ackPrevious() throws SQLException;

    @Override
    void close() throws SQLException;
  }
}
