package dev.flipper.queue.testing;

import dev.flipper.queue.NewJob;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Test data: {@code aJob().withPriority(2)}, {@code aJob("mail_1").withAttemptsAllowed(1)}, {@code
 * jobs(20, i -> aJob("job_body_" + i))}. The rest of the fluent API is {@link NewJob}'s own.
 */
public final class Jobs {
  private Jobs() {}

  /** A job with body "job" and PinLater's defaults: priority 1, run now, 2 attempts. */
  public static NewJob aJob() {
    return NewJob.of("job");
  }

  public static NewJob aJob(String utf8Body) {
    return NewJob.of(utf8Body);
  }

  /** n jobs made by the function from their index 0..n-1. */
  public static List<NewJob> jobs(int n, IntFunction<NewJob> make) {
    List<NewJob> list = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      list.add(make.apply(i));
    }
    return list;
  }

  /** n jobs with bodies {@code <prefix>0 .. <prefix>(n-1)} and default settings. */
  public static List<NewJob> numbered(String prefix, int n) {
    return jobs(n, i -> aJob(prefix + i));
  }

  public static String text(byte[] body) {
    return body == null ? null : new String(body, StandardCharsets.UTF_8);
  }
}
