package org.meterstore.cold.orphan;

import java.time.Instant;
import java.util.List;

/**
 * What an orphan-file scan found and did.
 *
 * @param olderThan only files last modified before this instant (UTC) were candidates
 * @param dryRun whether deletion was skipped
 * @param orphans the unreferenced files older than {@code olderThan}, as listed by the FileIO,
 *     sorted
 * @param deleted the files deleted (empty in a dry run), sorted
 * @param scannedFiles how many files the listing returned
 * @param referencedFiles how many distinct files the retained snapshots and metadata reference
 */
public record OrphanReport(
    Instant olderThan,
    boolean dryRun,
    List<String> orphans,
    List<String> deleted,
    int scannedFiles,
    int referencedFiles) {

  /** Copies the lists. */
  public OrphanReport {
    orphans = List.copyOf(orphans);
    deleted = List.copyOf(deleted);
  }
}
