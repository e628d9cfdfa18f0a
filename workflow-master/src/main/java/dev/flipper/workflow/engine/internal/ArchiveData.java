package dev.flipper.workflow.engine.internal;

/**
 * A finished instance waiting to be archived ({@code kind: "archive"}, token {@code /archive/<wf>/<inst>}).
 * The token's lease (owner {@code archive-delay}) ends when it is due, so a claim on {@code /archive/}
 * finds exactly the due ones.
 */
public final class ArchiveData extends TokenData {
  public String workflow;
  public String instance;
  public String status;
  public long dueMillis;

  public ArchiveData() {
    super("archive");
  }
}
