/**
 * Mutual TLS for every Flipper port, and the roles it carries. Each daemon, tool and application
 * holds a certificate signed by the deployment's own certificate authority; the subject's {@code
 * OU} names its {@link dev.flipper.tls.Role}, its {@code CN} who it is. Servers ask every client
 * for its certificate and authorise by role ({@link dev.flipper.tls.Peer}); clients check the
 * server's certificate and host name. {@link dev.flipper.tls.TlsFolder} is the file layout {@code
 * flipper tls init} writes and the daemons read; {@link dev.flipper.tls.ListenRule} keeps a daemon
 * without TLS off the network unless the config says {@code insecure: true}. docs/security.md has
 * the threat model and the set-up.
 */
package dev.flipper.tls;
