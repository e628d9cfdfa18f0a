package dev.flipper.thrift;

import java.util.Objects;

/** One queue server, {@code host:port}. Immutable. */
public record ServerAddress(String host, int port) {

  public ServerAddress {
    Objects.requireNonNull(host, "host");
    if (host.isBlank()) {
      throw new IllegalArgumentException("server host must not be blank");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException(
          "server port must be 1..65535, was " + port + " (host " + host + ")");
    }
  }

  /**
   * Parses {@code host:port}; the last ':' splits host from port, so bracket-less IPv6 hosts work
   * too.
   */
  public static ServerAddress parse(String text) {
    String trimmed = text == null ? "" : text.trim();
    int colon = trimmed.lastIndexOf(':');
    if (colon <= 0 || colon == trimmed.length() - 1) {
      throw new IllegalArgumentException("server address '" + text + "' must look like host:port");
    }
    String host = trimmed.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    try {
      return new ServerAddress(host, Integer.parseInt(trimmed.substring(colon + 1)));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "server address '"
              + text
              + "': port '"
              + trimmed.substring(colon + 1)
              + "' is not a number");
    }
  }

  @Override
  public String toString() {
    return host + ":" + port;
  }
}
