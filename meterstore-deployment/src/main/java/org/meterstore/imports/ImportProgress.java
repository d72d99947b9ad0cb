package org.meterstore.imports;

/** Told after each committed chunk of an import how far it got. Called on the importing thread. */
@FunctionalInterface
public interface ImportProgress {
  /** Does nothing. */
  ImportProgress NONE = (done, total) -> {};

  /**
   * @param rowsDone readings of the source handled so far (committed or found stored)
   * @param rowsTotal readings in the source
   */
  void progressed(long rowsDone, long rowsTotal);
}
