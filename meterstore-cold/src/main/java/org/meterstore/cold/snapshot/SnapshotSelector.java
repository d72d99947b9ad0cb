package org.meterstore.cold.snapshot;

import java.time.Instant;
import java.util.Objects;
import org.meterstore.api.MeterStoreException;

/**
 * Which snapshot of a cold table to read: the current one, one by id, the one a tag names, or the
 * one that was current at an instant. Immutable and thread-safe.
 *
 * @param kind how the snapshot is chosen
 * @param snapshotId the Iceberg snapshot id for {@link Kind#SNAPSHOT_ID}, else null
 * @param tag the Iceberg tag for {@link Kind#TAG} (not blank), else null
 * @param asOf the instant (UTC, millisecond precision used) for {@link Kind#AS_OF}, else null
 */
public record SnapshotSelector(Kind kind, Long snapshotId, String tag, Instant asOf) {

  /** How a selector chooses its snapshot. */
  public enum Kind {
    /** The current snapshot, or none when the table has no snapshot yet. */
    CURRENT,
    /** The snapshot with a given id. */
    SNAPSHOT_ID,
    /** The snapshot a tag points at. */
    TAG,
    /**
     * The snapshot that was current at an instant: the last entry of the table's snapshot log
     * committed at or before it.
     */
    AS_OF
  }

  private static final SnapshotSelector CURRENT =
      new SnapshotSelector(Kind.CURRENT, null, null, null);

  /**
   * Checks that exactly the component of the kind is set.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} naming the component
   */
  public SnapshotSelector {
    Objects.requireNonNull(kind, "kind");
    require(kind == Kind.SNAPSHOT_ID, snapshotId, "snapshot id", kind);
    require(kind == Kind.TAG, tag, "tag", kind);
    require(kind == Kind.AS_OF, asOf, "instant", kind);
    if (tag != null && tag.isBlank()) {
      throw MeterStoreException.invalid("tag", tag, "not blank");
    }
  }

  private static void require(boolean needed, Object value, String field, Kind kind) {
    if (needed != (value != null)) {
      throw MeterStoreException.invalid(
          field, value, needed ? "required for " + kind : "not used by " + kind);
    }
  }

  /** The current snapshot. */
  public static SnapshotSelector current() {
    return CURRENT;
  }

  /** The snapshot {@code snapshotId}. */
  public static SnapshotSelector snapshotId(long snapshotId) {
    return new SnapshotSelector(Kind.SNAPSHOT_ID, snapshotId, null, null);
  }

  /** The snapshot tagged {@code tag}. */
  public static SnapshotSelector tag(String tag) {
    return new SnapshotSelector(Kind.TAG, null, tag, null);
  }

  /** The snapshot that was current at {@code instant} (UTC). */
  public static SnapshotSelector asOf(Instant instant) {
    return new SnapshotSelector(Kind.AS_OF, null, null, instant);
  }

  /**
   * What the selector names, for messages: {@code the current snapshot}, {@code snapshot 42},
   * {@code tag settlement-2026-01}, {@code the snapshot as of 2026-01-01T00:00:00Z}.
   */
  public String describe() {
    return switch (kind) {
      case CURRENT -> "the current snapshot";
      case SNAPSHOT_ID -> "snapshot " + snapshotId;
      case TAG -> "tag " + tag;
      case AS_OF -> "the snapshot as of " + asOf;
    };
  }
}
