package dev.flipper.workflow.tokens;

/**
 * A finished instance waiting to be archived ({@code kind: "archive"}, token {@code
 * /archive/<wf>/<inst>}). The token's lease (owner {@code archive-delay}) ends when it is due, so a
 * claim on {@code /archive/} finds exactly the due ones. Archived with the instance, it stays its
 * summary in the archive.
 */
public final class ArchiveData extends TokenData {
  public String workflow;
  public String instance;
  public String status;
  public long dueMillis;

  /**
   * The instance record as the instance ended, so that a list of archived instances reads one small
   * token each (absent in archive tokens written before it existed: then the archived record is
   * read).
   */
  public InstanceData record;

  public ArchiveData() {
    super("archive");
  }
}
