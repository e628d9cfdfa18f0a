package dev.flipper.workflow.worker.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Who a worker process is: its host name and the unique name of each of its slots, {@code
 * <host>-<pid>-<slot>-<random>}, which owns the slot's leases and is recorded in every execution
 * record. The random part keeps names unique when a pid is reused on the host. Immutable.
 */
public final class WorkerIdentity {
  private final String host;
  private final String prefix;
  private final String suffix;

  public WorkerIdentity(String host) {
    this.host = host;
    byte[] random = new byte[3];
    ThreadLocalRandom.current().nextBytes(random);
    this.prefix = host + "-" + ProcessHandle.current().pid();
    this.suffix = HexFormat.of().formatHex(random);
  }

  public static WorkerIdentity ofThisHost() {
    return new WorkerIdentity(hostName());
  }

  public String host() {
    return host;
  }

  /** The unique name of the process, {@code <host>-<pid>-<random>}: its heartbeat's name. */
  public String processName() {
    return prefix + "-" + suffix;
  }

  /** The unique name of slot {@code slot} (from 1). */
  public String slotName(int slot) {
    return prefix + "-" + slot + "-" + suffix;
  }

  /** This machine's host name, or {@code localhost} if it has none that resolves. */
  public static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }
}
