package dev.flipper.queue;

import java.util.List;

/**
 * One page of a scan; {@code continuation} is {@link ScanParams#END} when there is nothing more.
 */
public record ScanPage(List<JobInfo> jobs, String continuation) {
  public boolean hasMore() {
    return !ScanParams.END.equals(continuation);
  }
}
