package org.meterstore.cold.commit;

import java.util.List;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.reading.WriteOutcome;

/**
 * A late-correction batch classified against one snapshot of its cold table, nothing written
 * ({@code ColdTable.checkCorrections}). Handed to {@code
 * ColdTable.appendCorrections(CorrectionCheck, Instant)}, it spares the append a second scan of the
 * stored spans: an attempt whose table is still at {@link #snapshotId()} takes {@link #outcomes()}
 * as they are, since a snapshot never changes; one that finds a newer snapshot (another writer
 * committed in between) classifies the batch again.
 *
 * @param readings the batch, in order
 * @param outcomes one outcome per reading, as an append at {@link #snapshotId()} would report it
 * @param snapshotId the snapshot classified against, or -1 when the table had none
 */
public record CorrectionCheck(
    List<StoredReading> readings, List<WriteOutcome> outcomes, long snapshotId) {

  /** Copies the lists and checks they match. */
  public CorrectionCheck {
    readings = List.copyOf(readings);
    outcomes = List.copyOf(outcomes);
    if (readings.size() != outcomes.size()) {
      throw new IllegalArgumentException(
          "Invalid check: " + readings.size() + " readings, " + outcomes.size() + " outcomes");
    }
  }
}
