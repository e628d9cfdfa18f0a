package dev.flipper.queue.contract;

/** A shard a contract test asks the backend to create: its name and whether it is dequeue-only. */
public record TestShard(String name, boolean dequeueOnly) {
  public static TestShard of(String name) {
    return new TestShard(name, false);
  }

  public static TestShard dequeueOnly(String name) {
    return new TestShard(name, true);
  }
}
