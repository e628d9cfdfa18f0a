package dev.flipper.queue.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP forwarder to a server that a test can take down (dropping every connection) and bring back.
 */
final class FlakyProxy implements AutoCloseable {
  private final ServerSocket listener;
  private final int targetPort;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private volatile boolean up = true;

  FlakyProxy(int targetPort) throws IOException {
    this.targetPort = targetPort;
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::acceptLoop, "flaky-proxy-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  int port() {
    return listener.getLocalPort();
  }

  /** Drops every connection; new ones are closed at once until {@link #up()}. */
  void down() {
    up = false;
    for (Socket socket : open) {
      closeQuietly(socket);
    }
  }

  void up() {
    up = true;
  }

  private void acceptLoop() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        if (!up) {
          client.close();
          continue;
        }
        Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        open.add(client);
        open.add(server);
        pump(client, server);
        pump(server, client);
      } catch (IOException e) {
        // listener closed, or the target refused: the client sees its connection closed
      }
    }
  }

  private void pump(Socket from, Socket to) {
    Thread thread =
        new Thread(
            () -> {
              byte[] buffer = new byte[8192];
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                  out.write(buffer, 0, read);
                  out.flush();
                }
              } catch (IOException e) {
                // connection dropped
              } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
              }
            },
            "flaky-proxy-pump");
    thread.setDaemon(true);
    thread.start();
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException ignored) {
      // already closed
    }
  }

  @Override
  public void close() throws IOException {
    listener.close();
    down();
  }
}
