package org.meterstore;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.orphan.OrphanReport;
import org.meterstore.maintenance.MaintenanceBuilder;

/**
 * Orphan-file removal for one table ({@link MeterTable#orphanFiles()}): the files under the table's
 * location that no retained snapshot or metadata file references — data files of commits that never
 * landed, debris left by foreign tools — found without Spark, through the table's own FileIO. Only
 * files last modified before {@code now − minAge} are candidates, so the files of a commit still in
 * flight are never touched; deletion requires a minimum age of at least {@link #MIN_AGE_TO_DELETE}.
 * Thread-safe; holds no resources of its own.
 */
public final class OrphanFiles {
  /** The least {@code minAge} a deleting run accepts: younger files may belong to a commit. */
  public static final Duration MIN_AGE_TO_DELETE = MaintenanceBuilder.MIN_ORPHAN_AGE;

  private final MeterTable table;

  OrphanFiles(MeterTable table) {
    this.table = table;
  }

  /**
   * Lists the table's orphan files last modified before {@code now − minAge}; deletes nothing.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} for a negative age; {@code STORAGE}
   *     (retryable) when the catalog or the object store does not answer
   */
  public OrphanReport find(Instant now, Duration minAge) {
    check(now, minAge);
    return table.cold().findOrphanFiles(now, minAge);
  }

  /**
   * Deletes the table's orphan files last modified before {@code now − minAge}, and reports them.
   * Run {@link #find} first and read its list.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} for an age below {@link #MIN_AGE_TO_DELETE};
   *     {@code STORAGE} (retryable) when the catalog or the object store does not answer (files
   *     deleted before the failure stay deleted: each was orphaned)
   */
  public OrphanReport remove(Instant now, Duration minAge) {
    check(now, minAge);
    if (minAge.compareTo(MIN_AGE_TO_DELETE) < 0) {
      throw MeterStoreException.invalid(
          "orphan minimum age",
          minAge,
          "at least " + MIN_AGE_TO_DELETE + " to delete: younger files may belong to a commit");
    }
    return table.cold().removeOrphanFiles(now, minAge, false);
  }

  private static void check(Instant now, Duration minAge) {
    if (now == null) {
      throw MeterStoreException.invalid("now", null, "required");
    }
    Objects.requireNonNull(minAge, "minAge");
    if (minAge.isNegative()) {
      throw MeterStoreException.invalid("orphan minimum age", minAge, "zero or more");
    }
  }
}
