/**
 * The token storage SPI: what a backend implements so that {@link dev.flipper.token.TokenService}
 * can serve the token master's operations. The service validates requests; the store checks
 * versions and writes, each primitive atomically, with the shared rules of {@link
 * dev.flipper.token.spi.TokenChecks} so that every backend reports the same errors. Every backend
 * passes the contract suite ({@code TokenStoreContractTest} in queue-core's test jar).
 *
 * <p>Times are the service's clock (epoch milliseconds), never the database's.
 */
package dev.flipper.token.spi;
