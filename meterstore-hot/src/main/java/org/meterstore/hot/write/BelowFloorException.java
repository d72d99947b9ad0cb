package org.meterstore.hot.write;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

/**
 * The hot tier refused readings (or a partition) because they belong to the archived past of the
 * table (DESIGN § 4): a reading whose {@code from} lies below the table's floor, or in a window
 * whose partition is detached. Such a row would be invisible to every query, which reads {@code
 * from < W} from the cold tier, so nothing of the batch was written and no partition was created
 * for it.
 *
 * <p>A caller that writes through the hot tier directly can tell this from other invalid input by
 * its type and route the readings as late corrections to the cold tier ({@code append} does so).
 * {@link #reason()} says which of the two refusals it was. Always {@link ErrorKind#INVALID_INPUT},
 * never retryable: the same readings are refused again until they are routed elsewhere. Instants
 * are UTC; windows are {@code [start, end)}. The hot tier makes these (its factories are public for
 * its internal packages); callers catch them. Immutable.
 */
public final class BelowFloorException extends MeterStoreException {
  private static final long serialVersionUID = 1L;

  private static final String ROUTE =
      "archived readings are late corrections: write them with append, which routes them to the"
          + " cold tier";

  /** Which of the hot tier's two archived-past refusals an exception is. */
  public enum Reason {
    /** A reading, or a partition's window, starts before the table's floor. */
    BELOW_FLOOR,
    /**
     * The window's partition exists detached (or half-detached): it is archived, or archival of it
     * is in progress (the watermark may not have passed it yet), and it takes no more rows.
     */
    PARTITION_DETACHED
  }

  private final String table;
  private final Reason reason;
  private final Instant floor;
  private final Instant windowStart;
  private final Instant windowEnd;
  private final Instant readingFrom;
  private final String windowDetail;

  private BelowFloorException(
      String message,
      String windowDetail,
      String table,
      Reason reason,
      Instant floor,
      Instant windowStart,
      Instant windowEnd,
      Instant readingFrom,
      Throwable cause) {
    super(ErrorKind.INVALID_INPUT, false, message, cause);
    this.table = Objects.requireNonNull(table, "table");
    this.reason = Objects.requireNonNull(reason, "reason");
    this.floor = floor;
    this.windowStart = windowStart;
    this.windowEnd = windowEnd;
    this.readingFrom = readingFrom;
    this.windowDetail = windowDetail;
  }

  /**
   * A reading of a batch starts before the floor.
   *
   * @param table the table written to
   * @param floor the floor in force (recorded for the table, or passed by the caller)
   * @param reading the offending reading as messages show it, e.g. {@code #3 Reading[…]}
   * @param from the offending reading's interval start, before {@code floor}
   */
  public static BelowFloorException readingBelowFloor(
      String table, Instant floor, String reading, Instant from) {
    return new BelowFloorException(
        "Cannot write to table "
            + table
            + ": reading "
            + reading
            + " starts before the table's floor "
            + floor
            + " ("
            + ROUTE
            + "); nothing of the batch was written",
        null,
        table,
        Reason.BELOW_FLOOR,
        floor,
        null,
        null,
        from,
        null);
  }

  /**
   * A partition window starts before the floor, so its partition is not created.
   *
   * @param partition the partition's name
   */
  public static BelowFloorException windowBelowFloor(
      String table, Instant floor, String partition, Instant start, Instant end) {
    return new BelowFloorException(
        "Cannot create partition "
            + partition
            + " ["
            + start
            + ", "
            + end
            + ") of table "
            + table
            + ": it starts before the table's floor "
            + floor
            + " (no partition is created below the floor; "
            + ROUTE
            + ")",
        "which starts before the table's floor " + floor,
        table,
        Reason.BELOW_FLOOR,
        floor,
        start,
        end,
        null,
        null);
  }

  /**
   * A partition window's partition exists detached.
   *
   * @param partition the partition's name
   * @param state the partition's state as listed ({@code DETACHED})
   */
  public static BelowFloorException partitionDetached(
      String table, String partition, String state, Instant start, Instant end) {
    return new BelowFloorException(
        "Cannot write to window ["
            + start
            + ", "
            + end
            + ") of table "
            + table
            + ": its partition "
            + partition
            + " is "
            + state
            + " (archived or being archived; "
            + ROUTE
            + ")",
        "whose partition " + partition + " is " + state + " (archived or being archived)",
        table,
        Reason.PARTITION_DETACHED,
        null,
        start,
        end,
        null,
        null);
  }

  /**
   * This refusal of a partition window, restated for the first reading of a batch that needed the
   * window; the original stays as the cause.
   *
   * @param reading the offending reading as messages show it, e.g. {@code #3 Reading[…]}
   * @param from its interval start
   */
  public BelowFloorException forReading(String reading, Instant from) {
    if (windowDetail == null) {
      throw new IllegalStateException("Not a window refusal: " + getMessage());
    }
    String message =
        "Cannot write to table "
            + table
            + ": reading "
            + reading
            + " lies in window ["
            + windowStart
            + ", "
            + windowEnd
            + "), "
            + windowDetail
            + " ("
            + ROUTE
            + "); nothing of the batch was written";
    return new BelowFloorException(
        message, windowDetail, table, reason, floor, windowStart, windowEnd, from, this);
  }

  /** The table whose archived past was written to. */
  public String table() {
    return table;
  }

  /** Which refusal this is. */
  public Reason reason() {
    return reason;
  }

  /** The floor in force, for {@link Reason#BELOW_FLOOR}; empty for a detached partition. */
  public Optional<Instant> floor() {
    return Optional.ofNullable(floor);
  }

  /**
   * The start (inclusive) of the partition window refused: present for {@link
   * Reason#PARTITION_DETACHED}, and for {@link Reason#BELOW_FLOOR} when partition creation refused
   * the window; empty when a reading was refused against the floor before any window was looked at.
   */
  public Optional<Instant> windowStart() {
    return Optional.ofNullable(windowStart);
  }

  /** The end (exclusive) of the partition window refused; present with {@link #windowStart()}. */
  public Optional<Instant> windowEnd() {
    return Optional.ofNullable(windowEnd);
  }

  /**
   * The {@code from} of the first offending reading in batch order; empty when no reading was
   * involved ({@code Partitions.ensure} of a range below the floor).
   */
  public Optional<Instant> readingFrom() {
    return Optional.ofNullable(readingFrom);
  }
}
