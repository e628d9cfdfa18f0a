package dev.flipper.queue.redis.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * One Lua script from {@code src/main/resources/dev/flipper/queue/redis/lua}. Called with EVALSHA;
 * when the server does not know it (first use, restart, SCRIPT FLUSH, fail-over) it is loaded with
 * SCRIPT LOAD and the call repeated, which is safe because a NOSCRIPT reply means nothing ran. A
 * line {@code --!include <file>} is replaced by that file, for helpers several scripts share.
 * Immutable and thread-safe.
 */
public final class LuaScript {
  private static final String DIRECTORY = "/dev/flipper/queue/redis/lua/";
  private static final String INCLUDE = "--!include ";

  private final String name;
  private final byte[] source;
  private final byte[] sha;

  private LuaScript(String name, String source) {
    this.name = name;
    this.source = source.getBytes(StandardCharsets.UTF_8);
    this.sha = sha1Hex(this.source).getBytes(StandardCharsets.US_ASCII);
  }

  /** Loads {@code <name>.lua} from the class path. */
  public static LuaScript named(String name) {
    return new LuaScript(name, expand(read(name + ".lua")));
  }

  public String name() {
    return name;
  }

  /** Runs the script; a NOSCRIPT reply loads it and runs it once more. */
  public Object eval(Jedis jedis, List<byte[]> keys, List<byte[]> args) {
    try {
      return jedis.evalsha(sha, keys, args);
    } catch (JedisNoScriptException e) {
      load(jedis);
      return jedis.evalsha(sha, keys, args);
    }
  }

  /** SCRIPT LOAD; the server's digest must match ours, or EVALSHA would never find the script. */
  public void load(Jedis jedis) {
    byte[] loaded = jedis.scriptLoad(source);
    if (!java.util.Arrays.equals(loaded, sha)) {
      throw new IllegalStateException(
          "Redis returned digest "
              + new String(loaded, StandardCharsets.US_ASCII)
              + " for script "
              + name
              + ", expected "
              + new String(sha, StandardCharsets.US_ASCII)
              + " (indicates a bug)");
    }
  }

  private static String expand(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (String line : text.split("\n", -1)) {
      if (line.startsWith(INCLUDE)) {
        String included = read(line.substring(INCLUDE.length()).trim());
        out.append(included.endsWith("\n") ? included : included + "\n");
      } else {
        out.append(line).append('\n');
      }
    }
    return out.toString();
  }

  private static String read(String file) {
    try (InputStream in = LuaScript.class.getResourceAsStream(DIRECTORY + file)) {
      if (in == null) {
        throw new IllegalStateException(
            "Lua script " + DIRECTORY + file + " is missing from the class path");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read Lua script " + DIRECTORY + file, e);
    }
  }

  private static String sha1Hex(byte[] data) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(data));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-1 is missing from this JVM", e);
    }
  }
}
