package dev.flipper.tls;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a daemon without TLS off the network: on a loopback address anything goes (only this
 * machine's users can connect, as with Pinball and PinLater); on any other address the daemon needs
 * {@code security.tls}, or {@code security.insecure: true} to say the network is trusted, which is
 * logged once per process. Stateless but for that one warning.
 */
public final class ListenRule {
  private static final Logger log = LoggerFactory.getLogger(ListenRule.class);
  private static final AtomicBoolean warned = new AtomicBoolean();

  private ListenRule() {}

  /**
   * IllegalStateException when {@code daemon} would listen on {@code bindAddress}, not a loopback
   * address, without TLS and without {@code insecure}.
   */
  public static void check(String daemon, String bindAddress, boolean tls, boolean insecure) {
    if (tls || isLoopback(bindAddress)) {
      return;
    }
    if (!insecure) {
      throw new IllegalStateException(
          daemon
              + " would listen on "
              + bindAddress
              + " without TLS: anyone who reaches that address could run commands on the workers."
              + " Set security.tls: true with certificates from `flipper tls init`, bind to"
              + " 127.0.0.1, or set security.insecure: true if only trusted hosts can reach it"
              + " (docs/security.md)");
    }
    if (warned.compareAndSet(false, true)) {
      log.warn(
          "security.insecure is true: {} and the other daemons listen on {} without TLS; anyone"
              + " who can reach these ports can change workflows and run commands on the workers",
          daemon,
          bindAddress);
    }
  }

  /** True for 127.0.0.0/8, ::1 and names resolving to them; false for wildcards and the rest. */
  public static boolean isLoopback(String bindAddress) {
    try {
      return InetAddress.getByName(bindAddress).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
