package dev.flipper.workflow.worker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** How many bytes may still be written on the file system of a directory (the log folder). */
@FunctionalInterface
public interface FreeSpace {
  /** The file system's own count of usable bytes. */
  FreeSpace FILE_STORE = dir -> Files.getFileStore(dir).getUsableSpace();

  long usableBytes(Path dir) throws IOException;
}
