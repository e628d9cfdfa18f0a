package dev.flipper.launcher;

/**
 * Keeps the embedded H2 database's AUTO_SERVER port on this machine. With {@code AUTO_SERVER=TRUE}
 * the first process to open the file serves it to the others over TCP, and H2 opens that port to
 * other hosts on every interface; no URL setting changes that, only the JVM-wide system property
 * {@code h2.bindAddress}, which H2 reads once when it loads. So the launcher sets it at start,
 * before any database opens, to 127.0.0.1: the processes that share an H2 file run on one machine
 * anyway. A value given with {@code -Dh2.bindAddress} is kept.
 */
final class EmbeddedH2 {
  static final String BIND_ADDRESS_PROPERTY = "h2.bindAddress";

  private EmbeddedH2() {}

  static void keepAutoServerLocal() {
    if (System.getProperty(BIND_ADDRESS_PROPERTY) == null) {
      System.setProperty(BIND_ADDRESS_PROPERTY, "127.0.0.1");
    }
  }
}
