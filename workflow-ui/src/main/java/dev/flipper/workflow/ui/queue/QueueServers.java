package dev.flipper.workflow.ui.queue;

import dev.flipper.queue.client.QueueClient;
import dev.flipper.thrift.ServerAddress;
import dev.flipper.tls.TlsIdentity;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the queue dashboard finds the queue servers ({@code ui.queueServers}, {@code
 * ui.queueServerSetFile}): a list of {@code host:port}, or PinLater's server-set file (read by
 * queue-client's {@code ServerSetFile}, re-read every 5 s). The servers are one cluster sharing one
 * store: any of them answers for every queue. Immutable.
 *
 * @param queueServers {@code host:port} of each server; empty with no file = no dashboard
 * @param queueServerSetFile a server-set file; "" = none. Not both.
 * @param queueAdminPassword the queue admin password ({@code ui.queueAdminPassword}) the dashboard
 *     sends with pause, resume, retry and delete: the queue servers refuse those without it; "" =
 *     none. {@link #toString()} masks it.
 * @throws IllegalArgumentException naming the entry when an address is not {@code host:port}, or
 *     both are set
 */
public record QueueServers(
    List<String> queueServers, String queueServerSetFile, String queueAdminPassword) {
  public static final QueueServers NONE = new QueueServers(List.of(), "", "");

  public QueueServers {
    queueServers = queueServers == null ? List.of() : List.copyOf(queueServers);
    queueServerSetFile = queueServerSetFile == null ? "" : queueServerSetFile.trim();
    queueAdminPassword = queueAdminPassword == null ? "" : queueAdminPassword;
    if (!queueServers.isEmpty() && !queueServerSetFile.isEmpty()) {
      throw new IllegalArgumentException(
          "ui.queueServers and ui.queueServerSetFile are both set: name the queue "
              + "servers one way");
    }
    addresses(queueServers);
  }

  public static QueueServers of(String... hostPorts) {
    return new QueueServers(List.of(hostPorts), "", "");
  }

  /** These servers, reached with the queue admin password. */
  public QueueServers withAdminPassword(String password) {
    return new QueueServers(queueServers, queueServerSetFile, password);
  }

  public boolean configured() {
    return !queueServers.isEmpty() || !queueServerSetFile.isEmpty();
  }

  /** The servers as written, for the pages ("servers from FILE" for a server-set file). */
  public String describe() {
    return queueServerSetFile.isEmpty()
        ? String.join(", ", queueServers)
        : "servers from " + queueServerSetFile;
  }

  /**
   * A client of the servers, or null when none is configured. Short time-outs and one attempt per
   * server, so a page says "unreachable" within seconds.
   *
   * @param tls the UI's identity when the queue servers speak mutual TLS; null: plain Thrift
   */
  public QueueClient client(TlsIdentity tls) {
    if (!configured()) {
      return null;
    }
    QueueClient.Builder builder =
        QueueClient.builder()
            .tls(tls)
            .source("flipper-ui")
            .connectTimeout(Duration.ofSeconds(2))
            .requestTimeout(Duration.ofSeconds(10))
            .maxAttempts(2)
            .adminPassword(queueAdminPassword.isEmpty() ? null : queueAdminPassword);
    if (!queueServerSetFile.isEmpty()) {
      return builder.serverSetFile(Path.of(queueServerSetFile)).build();
    }
    return builder.servers(addresses(queueServers)).build();
  }

  @Override
  public String toString() {
    return "QueueServers[queueServers="
        + queueServers
        + ", queueServerSetFile="
        + queueServerSetFile
        + ", queueAdminPassword="
        + (queueAdminPassword.isEmpty() ? "" : "*****")
        + "]";
  }

  private static List<ServerAddress> addresses(List<String> hostPorts) {
    List<ServerAddress> servers = new ArrayList<>();
    for (int i = 0; i < hostPorts.size(); i++) {
      try {
        servers.add(ServerAddress.parse(hostPorts.get(i)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("ui.queueServers[" + i + "]: " + e.getMessage(), e);
      }
    }
    return servers;
  }
}
