package dev.flipper.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** Flipper's version, from the build (version.properties is filtered by Maven). Stateless. */
public final class VersionProvider implements IVersionProvider {

  public static String version() {
    try (InputStream in = VersionProvider.class.getResourceAsStream("version.properties")) {
      if (in == null) {
        return "unknown";
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version", "unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }

  @Override
  public String[] getVersion() {
    return new String[] {"flipper " + version(), "Java " + System.getProperty("java.version")};
  }
}
