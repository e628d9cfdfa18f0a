package dev.flipper.queue.server.internal;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The Thrift server's invoker: runs each call's invocation on the selector thread that read its
 * frame, where {@link PinLaterHandler} decides whether the call runs there or on a worker thread.
 * libthrift needs an executor service that it can shut down; there is nothing to shut down.
 * Thread-safe.
 */
public final class InlineInvoker extends AbstractExecutorService {
  private volatile boolean shutdown;

  @Override
  public void execute(Runnable invocation) {
    invocation.run();
  }

  @Override
  public void shutdown() {
    shutdown = true;
  }

  @Override
  public List<Runnable> shutdownNow() {
    shutdown = true;
    return List.of();
  }

  @Override
  public boolean isShutdown() {
    return shutdown;
  }

  @Override
  public boolean isTerminated() {
    return shutdown;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    return shutdown;
  }
}
