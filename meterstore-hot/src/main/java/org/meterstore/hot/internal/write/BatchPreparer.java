package org.meterstore.hot.internal.write;

import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.StoredRow;
import org.meterstore.hot.internal.partition.PartitionGrid;
import org.meterstore.hot.write.BelowFloorException;

/**
 * Validates a whole batch by the api's rules before any SQL runs, and stamps each reading with its
 * version, {@code recorded_at = now} and balancing day. The first refused reading refuses the batch
 * with {@code INVALID_INPUT} naming the table, the reading's position and identity, and the rule.
 */
final class BatchPreparer {
  /** Separates key parts; no canonical value contains it. */
  static final char SEPARATOR = '\u001f';

  private final TableLayout layout;
  private final PartitionGrid grid;

  BatchPreparer(TableLayout layout) {
    this.layout = layout;
    this.grid = PartitionGrid.of(layout.table());
  }

  /**
   * The batch's rows, in batch order.
   *
   * @param floor the watermark below which readings are refused, or null
   * @throws BelowFloorException for the first reading with {@code from < floor}
   */
  List<BatchRow> prepare(List<Reading> batch, Instant now, Instant floor) {
    List<BatchRow> rows = new ArrayList<>(batch.size());
    for (int i = 0; i < batch.size(); i++) {
      Reading reading = batch.get(i);
      if (reading == null) {
        throw refused(i, null, MeterStoreException.invalid("reading", null, "required"));
      }
      if (floor != null && reading.from().isBefore(floor)) {
        throw BelowFloorException.readingBelowFloor(
            layout.table().name(), floor, "#" + i + " " + reading, reading.from());
      }
      try {
        rows.add(row(i, reading, now));
      } catch (MeterStoreException e) {
        throw refused(i, reading, e);
      }
    }
    return rows;
  }

  private BatchRow row(int index, Reading reading, Instant now) {
    StoredReading stored = StoredReading.accept(reading, now);
    Object[] values = StoredRow.of(layout.table(), stored);
    List<String> key = new ArrayList<>();
    StringBuilder mergeKey = new StringBuilder();
    StringBuilder spanKey = new StringBuilder();
    int[] positions = layout.mergeKey();
    for (int position : positions) {
      String text = TableLayout.text(values[position]);
      key.add(text);
      mergeKey.append(text).append(SEPARATOR);
      if (!layout.columns().get(position).name().equals("from")) {
        spanKey.append(text).append(SEPARATOR);
      }
    }
    BigInteger version = stored.version().value();
    Instant lower = grid.floor(reading.from());
    grid.name(lower); // refuses windows a partition name cannot express
    return new BatchRow(
        index,
        reading,
        values,
        List.copyOf(key),
        mergeKey.toString(),
        spanKey.append(version).toString(),
        version,
        reading.versionScope().toString(),
        reading.versionScope().operator().toString(),
        reading.from(),
        reading.to(),
        lower,
        grid.upper(lower));
  }

  private MeterStoreException refused(int index, Reading reading, MeterStoreException cause) {
    return new MeterStoreException(
        cause.kind(),
        "Cannot write to table "
            + layout.table().name()
            + ": reading #"
            + index
            + " "
            + Objects.toString(reading, "null")
            + " is refused: "
            + cause.getMessage(),
        cause);
  }
}
