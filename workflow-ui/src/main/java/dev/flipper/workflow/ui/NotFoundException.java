package dev.flipper.workflow.ui;

/** The page's subject does not exist (or was archived): 404 with this message. */
final class NotFoundException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  NotFoundException(String message) {
    super(message);
  }
}
