package dev.flipper.token.jdbc.internal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Makes the token writers of one H2 database take turns (see {@link
 * dev.flipper.jdbc.Dialect#writersTakeTurns()}): one lock per database shared by every store in
 * this JVM, and, for a file database, an OS lock on {@code <file>.writer.lock} so that a second
 * process cannot write to it at the same time. Thread-safe.
 */
public final class WriterTurns implements AutoCloseable {
  private static final Map<String, Shared> OPEN = new HashMap<>();

  private final String key;
  private final Shared shared;
  private boolean closed;

  private WriterTurns(String key, Shared shared) {
    this.key = key;
    this.shared = shared;
  }

  /**
   * The turns of the H2 database at {@code url}. Fails with IllegalStateException if another
   * process holds the database's writer lock.
   */
  public static WriterTurns of(String url) {
    String database = url.split(";", 2)[0];
    Path lockFile = lockFile(database);
    // The same file may be named by different URLs (jdbc:h2:file:x, jdbc:h2:x): key by the lock
    // file.
    String key = lockFile == null ? database : lockFile.toString();
    synchronized (OPEN) {
      Shared shared = OPEN.get(key);
      if (shared == null) {
        shared = new Shared(lock(lockFile, database));
        OPEN.put(key, shared);
      }
      shared.users++;
      return new WriterTurns(key, shared);
    }
  }

  public <T> T run(Supplier<T> work) {
    shared.turn.lock();
    try {
      return work.get();
    } finally {
      shared.turn.unlock();
    }
  }

  @Override
  public void close() {
    synchronized (OPEN) {
      if (closed) {
        return;
      }
      closed = true;
      if (--shared.users == 0) {
        OPEN.remove(key);
        shared.releaseFile();
      }
    }
  }

  /**
   * A file database's writer lock file, or null for an in-memory or remote one (this JVM's lock is
   * all there is).
   */
  private static Path lockFile(String database) {
    String lower = database.toLowerCase(Locale.ROOT);
    if (lower.startsWith("jdbc:h2:mem:")
        || lower.startsWith("jdbc:h2:tcp:")
        || lower.startsWith("jdbc:h2:ssl:")) {
      return null;
    }
    String prefix = lower.startsWith("jdbc:h2:file:") ? "jdbc:h2:file:" : "jdbc:h2:";
    String path = database.substring(prefix.length());
    if (path.startsWith("~")) {
      path = System.getProperty("user.home") + path.substring(1);
    }
    return Path.of(path + ".writer.lock").toAbsolutePath().normalize();
  }

  /**
   * Takes the OS lock on the file, or null if there is no file; fails if another process holds it.
   */
  private static FileLock lock(Path file, String database) {
    if (file == null) {
      return null;
    }
    try {
      Files.createDirectories(
          file.getParent()); // H2 would create it too, but only at the first connection
      FileChannel channel =
          FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null; // held in this JVM, but not through this class
      }
      if (lock == null) {
        channel.close();
        throw new IllegalStateException(
            "another process writes tokens to the H2 database "
                + database
                + " (it holds "
                + file
                + "). One token master per H2 database; run several masters over MySQL or MariaDB");
      }
      return lock;
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot lock " + file + " for the token writers of " + database + ": " + e.getMessage(),
          e);
    }
  }

  private static final class Shared {
    final ReentrantLock turn = new ReentrantLock(true);
    final FileLock file;
    int users;

    Shared(FileLock file) {
      this.file = file;
    }

    void releaseFile() {
      if (file == null) {
        return;
      }
      try {
        file.channel().close(); // releases the lock
      } catch (IOException e) {
        // the OS drops the lock when the process exits anyway
      }
    }
  }
}
