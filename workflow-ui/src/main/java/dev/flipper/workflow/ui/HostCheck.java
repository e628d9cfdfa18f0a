package dev.flipper.workflow.ui;

import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Answers only requests whose {@code Host} header names this UI, so that a page of another site
 * whose name was made to resolve to this machine (DNS rebinding) cannot read pages or run actions.
 * Allowed: the host of {@code ui.baseUrl}, each {@code ui.allowedHosts} entry ({@code name} = any
 * port, {@code name:port} = that port), and, on the port the request came in on, the bind address
 * and (bound on loopback or a wildcard) localhost, 127.0.0.1 and [::1]. Anything else is answered
 * 421 before any page or action. Immutable and thread-safe.
 */
final class HostCheck {
  private static final Set<String> LOOPBACK_NAMES = Set.of("localhost", "127.0.0.1", "[::1]");
  private static final Set<String> WILDCARDS = Set.of("0.0.0.0", "::", "[::]");

  /** Names answered on the request's own port. */
  private final List<String> onLocalPort = new ArrayList<>();

  /** Configured {@code name} or {@code name:port} entries. */
  private final List<String> configured = new ArrayList<>();

  HostCheck(UiAuth auth, String bindAddress) {
    String bind = bindAddress.contains(":") ? "[" + bindAddress + "]" : bindAddress;
    if (UiAuth.loopback(bindAddress) || WILDCARDS.contains(bindAddress)) {
      onLocalPort.addAll(LOOPBACK_NAMES);
    }
    if (!WILDCARDS.contains(bindAddress)) {
      onLocalPort.add(bind.toLowerCase(Locale.ROOT));
    }
    if (!auth.baseUrl().isEmpty()) {
      URI base = URI.create(auth.baseUrl());
      String host = base.getHost() == null ? "" : base.getHost().toLowerCase(Locale.ROOT);
      configured.add(base.getPort() < 0 ? host : host + ":" + base.getPort());
    }
    auth.allowedHosts().forEach(h -> configured.add(normal(h)));
  }

  /** Before every request: refuses (421, plain text) one for another host. */
  void check(Context ctx) {
    String host = ctx.header("Host");
    if (host != null && allowed(normal(host), ctx.req().getLocalPort())) {
      return;
    }
    ctx.status(HttpStatus.MISDIRECTED_REQUEST)
        .contentType("text/plain; charset=utf-8")
        .result(
            (host == null
                    ? "the request has no Host header"
                    : "this UI does not answer Host '" + host + "'")
                + ": add the name to ui.allowedHosts or set ui.baseUrl to the address users reach"
                + " the UI at\n");
    ctx.skipRemainingHandlers();
  }

  boolean allowed(String host, int localPort) {
    int colon = host.lastIndexOf(':');
    boolean hasPort = colon > host.lastIndexOf(']');
    String name = hasPort ? host.substring(0, colon) : host;
    String port = hasPort ? host.substring(colon + 1) : "80"; // a browser leaves out port 80
    if (onLocalPort.contains(name) && port.equals(Integer.toString(localPort))) {
      return true;
    }
    return configured.contains(host) || configured.contains(name);
  }

  /** Lower case, without a trailing dot of a fully qualified name. */
  private static String normal(String host) {
    String h = host.strip().toLowerCase(Locale.ROOT);
    return h.replaceFirst("\\.(:\\d+)?$", "$1");
  }
}
