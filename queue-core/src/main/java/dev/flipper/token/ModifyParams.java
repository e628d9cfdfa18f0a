package dev.flipper.token;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * One atomic change: every update and delete applies, or none does.
 *
 * <p>An update whose name exists must carry the stored version (else VERSION_CONFLICT); one whose
 * name does not exist must carry no version and is an insert (with a version it is NOT_FOUND). A
 * delete must carry the stored version (none: INPUT_ERROR; wrong: VERSION_CONFLICT; missing token:
 * NOT_FOUND). A name may appear once per request. Immutable; null lists mean empty.
 *
 * @param updates tokens to insert or update, written with all their fields
 * @param deletes tokens to delete; only name and version matter
 */
public record ModifyParams(List<Token> updates, List<Token> deletes) {

  public ModifyParams {
    // Not List.copyOf: a null element must reach validation and come back as INPUT_ERROR, not an
    // NPE here.
    updates = updates == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(updates));
    deletes = deletes == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(deletes));
  }

  public static ModifyParams updating(Token... tokens) {
    return new ModifyParams(Arrays.asList(tokens), List.of());
  }

  public static ModifyParams deleting(Token... tokens) {
    return new ModifyParams(List.of(), Arrays.asList(tokens));
  }

  public ModifyParams withDeletes(Token... tokens) {
    return new ModifyParams(updates, Arrays.asList(tokens));
  }

  public boolean isEmpty() {
    return updates.isEmpty() && deletes.isEmpty();
  }
}
