package org.meterstore.query.mode;

import java.math.BigInteger;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import org.meterstore.api.MeterStoreException;

/**
 * The JDBC connection properties MeterStore reads (every other property goes to Calcite). They
 * choose the connection's {@link ReadMode}; a statement can override it per table with the table
 * functions of {@code docs/querying.md}.
 */
public final class QueryProperties {
  /**
   * The read mode: {@code current} (default), {@code as_of_snapshot}, {@code as_of_tag}, {@code
   * as_of_time}, {@code known_at}, {@code historical} or {@code operational}.
   */
  public static final String MODE = "meterstore.mode";

  /** The Iceberg snapshot id for {@code as_of_snapshot}. */
  public static final String SNAPSHOT_ID = "meterstore.snapshot_id";

  /** The Iceberg tag for {@code as_of_tag}. */
  public static final String TAG = "meterstore.tag";

  /** The ISO-8601 instant (UTC) for {@code as_of_time} and {@code known_at}. */
  public static final String INSTANT = "meterstore.instant";

  /** The highest version read (inclusive), any mode; absent for none. */
  public static final String VERSION_CEILING = "meterstore.version_ceiling";

  /**
   * The instant (ISO-8601, UTC) at which this connection's {@code system} relations are computed,
   * once, when it opens; absent, they are not computed (reading them is an error naming this
   * property). The {@code jdbc:meterstore:} driver also accepts {@code now}, read from its clock.
   */
  public static final String SYSTEM_AT = "meterstore.system_at";

  /** The prefix of every MeterStore property. */
  public static final String PREFIX = "meterstore.";

  private QueryProperties() {}

  /**
   * The read mode the properties choose.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} naming the property and the rule
   */
  public static ReadMode readMode(Properties info) {
    String mode = info.getProperty(MODE, "current").trim().toLowerCase(Locale.ROOT);
    ReadMode base = base(info, mode);
    String ceiling = info.getProperty(VERSION_CEILING);
    return ceiling == null ? base : base.withVersionCeiling(version(ceiling));
  }

  private static ReadMode base(Properties info, String mode) {
    switch (mode) {
      case "current":
        return ReadMode.current();
      case "as_of_snapshot":
        return ReadMode.asOfSnapshot(snapshotId(required(info, SNAPSHOT_ID, mode)));
      case "as_of_tag":
        return ReadMode.asOfTag(required(info, TAG, mode));
      case "as_of_time":
        return ReadMode.asOfTime(instant(required(info, INSTANT, mode)));
      case "known_at":
        return ReadMode.knownAt(instant(required(info, INSTANT, mode)));
      case "historical":
        return ReadMode.historical();
      case "operational":
        return ReadMode.operational();
      default:
        throw MeterStoreException.invalid(
            MODE,
            mode,
            "one of current, as_of_snapshot, as_of_tag, as_of_time, known_at, historical,"
                + " operational");
    }
  }

  /**
   * The instant {@link #SYSTEM_AT} names, or empty when the property is absent.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} naming the property when it is not an
   *     ISO-8601 instant
   */
  public static Optional<Instant> systemAt(Properties info) {
    String text = info.getProperty(SYSTEM_AT);
    if (text == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Instant.parse(text.trim()));
    } catch (DateTimeParseException e) {
      throw MeterStoreException.invalid(
          SYSTEM_AT,
          text,
          "an ISO-8601 instant in UTC such as 2026-02-01T00:00:00Z; the jdbc:meterstore: driver"
              + " also accepts now");
    }
  }

  /** Parses an ISO-8601 instant such as {@code 2026-01-05T00:00:00Z}. */
  public static Instant instant(String text) {
    try {
      return Instant.parse(text.trim());
    } catch (DateTimeParseException | NullPointerException e) {
      throw MeterStoreException.invalid("instant", text, "an ISO-8601 instant in UTC");
    }
  }

  /** Parses a version number (0 to 20 digits). */
  public static BigInteger version(String text) {
    if (text == null || !text.trim().matches("[0-9]{1,20}")) {
      throw MeterStoreException.invalid("version ceiling", text, "an integer of 1 to 20 digits");
    }
    return new BigInteger(text.trim());
  }

  private static long snapshotId(String text) {
    try {
      return Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw MeterStoreException.invalid(SNAPSHOT_ID, text, "an Iceberg snapshot id");
    }
  }

  private static String required(Properties info, String key, String mode) {
    String value = info.getProperty(key);
    if (value == null || value.isBlank()) {
      throw MeterStoreException.invalid(key, value, "required by " + MODE + "=" + mode);
    }
    return value;
  }
}
