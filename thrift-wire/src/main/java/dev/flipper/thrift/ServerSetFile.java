package dev.flipper.thrift;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A server-set file, PinLater's file-based discovery: one {@code host:port} per line; blank lines
 * and lines starting with '#' are skipped. Servers use it to divide rate limits by the number of
 * live servers, clients to find servers. Stateless.
 */
public final class ServerSetFile {
  private ServerSetFile() {}

  public static List<ServerAddress> read(Path file) {
    try {
      return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot read server-set file " + file + ": " + e.getMessage(), e);
    }
  }

  /** Parses the content; {@code origin} names the file in error messages. */
  public static List<ServerAddress> parse(String content, String origin) {
    List<ServerAddress> servers = new ArrayList<>();
    String[] lines = content.split("\r?\n");
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].trim();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      try {
        servers.add(ServerAddress.parse(line));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(origin + " line " + (i + 1) + ": " + e.getMessage(), e);
      }
    }
    return List.copyOf(servers);
  }
}
