package org.meterstore.hot.internal.write;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.meterstore.hot.write.BelowFloorException;

/**
 * The write path's side of the table's floor (DESIGN § 4): the batch is refused whole when one of
 * its readings starts below the floor recorded for the table, as read under the registry row's
 * share lock in the write transaction, and a partition creator's refusal of a window is restated
 * for the first reading of the batch that needed the window. Pure.
 */
final class FloorCheck {
  private FloorCheck() {}

  /**
   * Refuses {@code rows} when one starts below {@code floor}.
   *
   * @throws BelowFloorException naming the first such reading in batch order
   */
  static void refuseBelow(String table, Optional<Instant> floor, List<BatchRow> rows) {
    if (floor.isEmpty()) {
      return;
    }
    for (BatchRow row : rows) {
      if (row.from().isBefore(floor.get())) {
        throw BelowFloorException.readingBelowFloor(
            table, floor.get(), "#" + row.index() + " " + row.reading(), row.from());
      }
    }
  }

  /** {@code refusal} of a window, restated for the first row of {@code rows} in that window. */
  static BelowFloorException forFirstReading(BelowFloorException refusal, List<BatchRow> rows) {
    Optional<Instant> window = refusal.windowStart();
    if (window.isEmpty() || refusal.readingFrom().isPresent()) {
      return refusal;
    }
    for (BatchRow row : rows) {
      if (row.lower().equals(window.get())) {
        return refusal.forReading("#" + row.index() + " " + row.reading(), row.from());
      }
    }
    return refusal;
  }
}
