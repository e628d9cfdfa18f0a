package dev.flipper.queue.testing;

import java.util.List;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * Puts the backend's test class in front of every failure message. The nested areas are named
 * {@code QueueContractTest$Ack} or {@code TokenStoreContractTest$Modify} whatever the backend, so
 * without this a module that runs two backends (H2 and MariaDB, say) would report failures without
 * saying which one failed.
 */
public final class BackendNameOnFailure
    implements TestExecutionExceptionHandler, LifecycleMethodExecutionExceptionHandler {

  @Override
  public void handleTestExecutionException(ExtensionContext context, Throwable throwable)
      throws Throwable {
    throw named(context, throwable);
  }

  @Override
  public void handleBeforeEachMethodExecutionException(
      ExtensionContext context, Throwable throwable) throws Throwable {
    throw named(context, throwable);
  }

  @Override
  public void handleAfterEachMethodExecutionException(ExtensionContext context, Throwable throwable)
      throws Throwable {
    throw named(context, throwable);
  }

  private static Throwable named(ExtensionContext context, Throwable throwable) {
    List<Object> instances = context.getRequiredTestInstances().getAllInstances();
    String backend = instances.get(0).getClass().getSimpleName();
    String prefix = "[" + backend + "] ";
    if (throwable.getMessage() != null && throwable.getMessage().startsWith(prefix)) {
      return throwable;
    }
    if (throwable instanceof org.opentest4j.TestAbortedException) {
      return throwable; // a skipped test, not a failure
    }
    AssertionError named = new AssertionError(prefix + throwable, throwable);
    named.setStackTrace(throwable.getStackTrace());
    return named;
  }
}
