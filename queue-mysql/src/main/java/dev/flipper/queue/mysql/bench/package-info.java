/**
 * The store-level workload of {@code flipper bench jdbc}: the store's own hot-path statements on
 * plain JDBC connections, the ceiling that {@code JdbcQueueStore} is measured against. It lives
 * here, beside the statements it runs, so the benchmarks module needs no internal package; no store
 * or daemon code path uses it.
 */
package dev.flipper.queue.mysql.bench;
