package org.meterstore.cold.snapshot;

import java.time.Instant;
import java.util.Objects;
import java.util.regex.Pattern;
import org.meterstore.api.MeterStoreException;

/**
 * One tag of a cold table: a named, retained snapshot (a settlement pin, DESIGN § 5) that
 * MeterStore's expiry never removes.
 *
 * @param name the tag's name (a tag made by another tool may not follow {@link #requireValidName})
 * @param snapshotId the tagged snapshot's id
 * @param sequenceNumber the tagged snapshot's sequence number
 * @param committedAt when the catalog committed the tagged snapshot (Iceberg's timestamp, UTC)
 * @param archivedAt the committer's {@code now} stamped on the tagged snapshot ({@code
 *     meterstore.archived-at}, UTC), or null for a snapshot MeterStore did not commit
 * @param watermark the W the tagged snapshot carries or inherits, or null when its ancestry is
 *     broken by expiry
 * @param totalRows rows in the table at the tagged snapshot, or -1 when unknown
 */
public record SnapshotTag(
    String name,
    long snapshotId,
    long sequenceNumber,
    Instant committedAt,
    Instant archivedAt,
    Instant watermark,
    long totalRows) {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");

  /** Checks that the name and the commit instant are present. */
  public SnapshotTag {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(committedAt, "committedAt");
  }

  /**
   * Checks a tag name: 1 to 100 characters, letters, digits, {@code .}, {@code _} and {@code -},
   * starting with a letter or digit (for example {@code settlement-2026-10}); {@code main} is the
   * name of Iceberg's main branch and no tag.
   *
   * @return {@code name}
   * @throws MeterStoreException {@code INVALID_INPUT} naming the tag and the rule
   */
  public static String requireValidName(String name) {
    if (name == null || !NAME.matcher(name).matches()) {
      throw MeterStoreException.invalid(
          "tag",
          name,
          "1 to 100 letters, digits, '.', '_' or '-', starting with a letter or digit, e.g."
              + " settlement-2026-10");
    }
    if (name.equals("main")) {
      throw MeterStoreException.invalid("tag", name, "main is the Iceberg main branch, not a tag");
    }
    return name;
  }
}
