package org.meterstore.hot.internal.partition;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;

/**
 * The windows a table's partitions cover: {@code [epoch + k * step, epoch + (k + 1) * step)} in
 * UTC, named {@code <table>_YYYY_MM_DD_HHMM} after the lower bound. Pure and thread-safe.
 *
 * @param table the table name (at most 34 characters, so names fit in 50)
 * @param step the archival step, whole minutes
 */
public record PartitionGrid(String table, Duration step) {
  private static final DateTimeFormatter SUFFIX = DateTimeFormatter.ofPattern("uuuu_MM_dd_HHmm");
  private static final int SUFFIX_LENGTH = "YYYY_MM_DD_HHMM".length();
  private static final Instant FIRST = Instant.parse("0001-01-01T00:00:00Z");
  private static final Instant LAST = Instant.parse("9999-12-31T00:00:00Z");

  /** The grid of {@code table}'s archival step. */
  public static PartitionGrid of(TableDefinition table) {
    return new PartitionGrid(table.name(), table.policy().archivalStep());
  }

  /** The lower bound of the window holding {@code instant}. */
  public Instant floor(Instant instant) {
    long seconds = step.getSeconds();
    return Instant.ofEpochSecond(Math.floorDiv(instant.getEpochSecond(), seconds) * seconds);
  }

  /** The lower bound of the first window that starts at or after {@code instant}. */
  public Instant ceiling(Instant instant) {
    Instant lower = floor(instant);
    return lower.equals(instant) ? lower : upper(lower);
  }

  /** The upper bound (exclusive) of the window starting at {@code lower}. */
  public Instant upper(Instant lower) {
    return lower.plus(step);
  }

  /** The lower bounds of every window intersecting {@code [fromInclusive, toExclusive)}. */
  public List<Instant> lowerBounds(Instant fromInclusive, Instant toExclusive) {
    List<Instant> bounds = new ArrayList<>();
    for (Instant l = floor(fromInclusive); l.isBefore(toExclusive); l = upper(l)) {
      bounds.add(l);
    }
    return bounds;
  }

  /**
   * The partition name of the window starting at {@code lower}.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} outside the years 0001 to 9999, which a name
   *     cannot express
   */
  public String name(Instant lower) {
    if (lower.isBefore(FIRST) || lower.isAfter(LAST)) {
      throw MeterStoreException.invalid(
          "from", lower, "hot partitions cover the years 0001 to 9999 (table " + table + ")");
    }
    return table + "_" + SUFFIX.format(LocalDateTime.ofInstant(lower, ZoneOffset.UTC));
  }

  /** The lower bound a partition name of this table encodes, if it is one on this grid. */
  public Optional<Instant> lowerBound(String partitionName) {
    String prefix = table + "_";
    if (!partitionName.startsWith(prefix)
        || partitionName.length() != prefix.length() + SUFFIX_LENGTH) {
      return Optional.empty();
    }
    try {
      Instant lower =
          LocalDateTime.parse(partitionName.substring(prefix.length()), SUFFIX)
              .toInstant(ZoneOffset.UTC);
      return floor(lower).equals(lower) ? Optional.of(lower) : Optional.empty();
    } catch (DateTimeException e) {
      return Optional.empty();
    }
  }

  /** The SQL {@code regex} every partition name of this table matches (names are checked after). */
  public String namePattern() {
    return "^" + table + "_[0-9]{4}_[0-9]{2}_[0-9]{2}_[0-9]{4}$";
  }
}
