/**
 * JDBC plumbing shared by the queue and token stores and by the launcher: the SQL dialects of
 * MySQL/MariaDB and H2 ({@link dev.flipper.jdbc.Dialect}), and JDBC URLs ({@link
 * dev.flipper.jdbc.JdbcUrl} masks passwords for logs, {@link dev.flipper.jdbc.MariaDbUrls} says
 * what to write instead of a {@code jdbc:mariadb:} URL). It knows neither store; the pools, schema
 * migrations and SQL error mapping are in {@code dev.flipper.jdbc.internal}.
 */
package dev.flipper.jdbc;
