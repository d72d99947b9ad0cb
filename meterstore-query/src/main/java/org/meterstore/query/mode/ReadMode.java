package org.meterstore.query.mode;

import java.math.BigInteger;
import java.time.Instant;
import java.util.Objects;
import org.meterstore.api.MeterStoreException;

/**
 * Which stored state a query reads (DESIGN § 7). Immutable and thread-safe.
 *
 * <ul>
 *   <li>{@link Kind#CURRENT} (default): both tiers, split at the watermark W read once per query.
 *   <li>{@link Kind#AS_OF_SNAPSHOT}, {@link Kind#AS_OF_TAG}, {@link Kind#AS_OF_TIME}: the cold tier
 *       exactly as one Iceberg snapshot holds it (the readings archived by then); an unknown or
 *       expired snapshot or tag is an error naming it, never a fallback.
 *   <li>{@link Kind#KNOWN_AT}: both tiers, as known at a {@code recorded_at} instant: versions
 *       recorded later are ignored before resolution.
 *   <li>{@link Kind#HISTORICAL}: the cold tier only (current snapshot).
 *   <li>{@link Kind#OPERATIONAL}: the hot tier only (the attached partitions); works while the cold
 *       tier is unreachable.
 * </ul>
 *
 * <p>Every mode may carry a version ceiling: versions above it are ignored before resolution, which
 * reproduces a settlement computed before a correction arrived.
 *
 * @param kind the mode
 * @param snapshotId the Iceberg snapshot id for {@code AS_OF_SNAPSHOT}, else null
 * @param tag the Iceberg tag for {@code AS_OF_TAG}, else null
 * @param instant the instant (UTC) for {@code AS_OF_TIME} (the snapshot current then) and {@code
 *     KNOWN_AT} (inclusive {@code recorded_at} bound), else null
 * @param versionCeiling the highest version read (inclusive), or null for none
 */
public record ReadMode(
    Kind kind, Long snapshotId, String tag, Instant instant, BigInteger versionCeiling) {

  /** The read modes. */
  public enum Kind {
    /** Both tiers, current state. */
    CURRENT,
    /** The cold tier at one snapshot id. */
    AS_OF_SNAPSHOT,
    /** The cold tier at the snapshot a tag names. */
    AS_OF_TAG,
    /** The cold tier at the snapshot that was current at an instant. */
    AS_OF_TIME,
    /** Both tiers, versions recorded at or before an instant. */
    KNOWN_AT,
    /** The cold tier only. */
    HISTORICAL,
    /** The hot tier only. */
    OPERATIONAL;

    /** Whether this mode reads only the cold tier. */
    public boolean coldOnly() {
      return this == AS_OF_SNAPSHOT
          || this == AS_OF_TAG
          || this == AS_OF_TIME
          || this == HISTORICAL;
    }
  }

  private static final ReadMode CURRENT = new ReadMode(Kind.CURRENT, null, null, null, null);

  /** Checks that exactly the components of the kind are set. */
  public ReadMode {
    Objects.requireNonNull(kind, "kind");
    require(kind == Kind.AS_OF_SNAPSHOT, snapshotId, "snapshot id", kind);
    require(kind == Kind.AS_OF_TAG, tag, "tag", kind);
    require(kind == Kind.AS_OF_TIME || kind == Kind.KNOWN_AT, instant, "instant", kind);
    if (tag != null && tag.isBlank()) {
      throw MeterStoreException.invalid("tag", tag, "not blank");
    }
    if (versionCeiling != null && versionCeiling.signum() < 0) {
      throw MeterStoreException.invalid("version ceiling", versionCeiling, "zero or more");
    }
  }

  private static void require(boolean needed, Object value, String field, Kind kind) {
    if (needed != (value != null)) {
      throw MeterStoreException.invalid(
          field, value, needed ? "required for " + kind : "not used by " + kind);
    }
  }

  /** Both tiers, current state (the default). */
  public static ReadMode current() {
    return CURRENT;
  }

  /** The cold tier as snapshot {@code snapshotId} holds it. */
  public static ReadMode asOfSnapshot(long snapshotId) {
    return new ReadMode(Kind.AS_OF_SNAPSHOT, snapshotId, null, null, null);
  }

  /** The cold tier as the snapshot tagged {@code tag} holds it. */
  public static ReadMode asOfTag(String tag) {
    return new ReadMode(Kind.AS_OF_TAG, null, tag, null, null);
  }

  /** The cold tier as the snapshot current at {@code instant} (UTC) holds it. */
  public static ReadMode asOfTime(Instant instant) {
    return new ReadMode(Kind.AS_OF_TIME, null, null, instant, null);
  }

  /** Both tiers, ignoring versions recorded after {@code instant} (inclusive bound). */
  public static ReadMode knownAt(Instant instant) {
    return new ReadMode(Kind.KNOWN_AT, null, null, instant, null);
  }

  /** The cold tier only, current snapshot. */
  public static ReadMode historical() {
    return new ReadMode(Kind.HISTORICAL, null, null, null, null);
  }

  /** The hot tier only. */
  public static ReadMode operational() {
    return new ReadMode(Kind.OPERATIONAL, null, null, null, null);
  }

  /** This mode, ignoring versions above {@code ceiling} (inclusive bound); null removes it. */
  public ReadMode withVersionCeiling(BigInteger ceiling) {
    return new ReadMode(kind, snapshotId, tag, instant, ceiling);
  }

  /** A short description for plans and messages, e.g. {@code AS_OF_SNAPSHOT(42)}. */
  public String describe() {
    StringBuilder b = new StringBuilder(kind.name());
    Object arg = snapshotId != null ? snapshotId : tag != null ? tag : instant;
    if (arg != null) {
      b.append('(').append(arg).append(')');
    }
    if (versionCeiling != null) {
      b.append(" version<=").append(versionCeiling);
    }
    return b.toString();
  }
}
