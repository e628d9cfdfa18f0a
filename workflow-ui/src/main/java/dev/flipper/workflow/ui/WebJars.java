package dev.flipper.workflow.ui;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

/**
 * URLs of files in the WebJars on the classpath (served under {@code
 * /webjars/<artifact>/<version>/}), with the version read from each jar's Maven metadata: the pom
 * is the only place that names a version. Thread-safe.
 */
public final class WebJars {
  private static final Map<String, String> VERSIONS = new ConcurrentHashMap<>();

  private WebJars() {}

  /**
   * @param group e.g. {@code org.webjars.npm}
   * @param file the path inside the package, e.g. {@code dist/cytoscape.min.js}
   * @throws IllegalStateException if that WebJar is not on the classpath
   */
  public static String url(String group, String artifact, String file) {
    return "/webjars/"
        + artifact
        + "/"
        + VERSIONS.computeIfAbsent(group + ":" + artifact, k -> version(group, artifact))
        + "/"
        + file;
  }

  private static String version(String group, String artifact) {
    String metadata = "META-INF/maven/" + group + "/" + artifact + "/pom.properties";
    try (InputStream in = WebJars.class.getClassLoader().getResourceAsStream(metadata)) {
      if (in == null) {
        throw new IllegalStateException(
            "WebJar "
                + group
                + ":"
                + artifact
                + " is not on the classpath (no "
                + metadata
                + "); it is a dependency of workflow-ui");
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version");
    } catch (IOException e) {
      throw new UncheckedIOException(metadata, e);
    }
  }
}
