package org.meterstore.cold.commit;

import java.util.List;
import org.meterstore.api.reading.WriteOutcome;

/**
 * The outcome of a late-correction append.
 *
 * @param outcomes one outcome per submitted reading, in submission order: {@code INSERTED} (no
 *     stored version of its merge key), {@code SUPERSEDED} (it outranks every stored version),
 *     {@code SHADOWED} (a higher version is stored), {@code DUPLICATE} (the same version with the
 *     same value, unit and quality is stored: not appended)
 * @param appendedRows how many rows were appended (the readings not reported {@code DUPLICATE})
 * @param snapshotId the snapshot that appended them, or -1 when nothing was appended
 */
public record CorrectionResult(List<WriteOutcome> outcomes, int appendedRows, long snapshotId) {

  /** Copies the outcome list. */
  public CorrectionResult {
    outcomes = List.copyOf(outcomes);
  }
}
