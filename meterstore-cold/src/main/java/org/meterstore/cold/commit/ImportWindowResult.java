package org.meterstore.cold.commit;

import java.util.List;
import java.util.Objects;
import org.meterstore.api.reading.WriteOutcome;

/**
 * The outcome of {@code ColdTable.importWindow}: one settled window of history committed like an
 * archival window.
 *
 * @param archive the archival commit's result: {@code COMMITTED} with the new W and the digest of
 *     the rows appended, or why nothing was committed
 * @param outcomes one outcome per submitted reading, in submission order; {@code DUPLICATE} for a
 *     reading the batch repeats (same merge key, version, value, unit and quality), which is not
 *     appended; empty when nothing was committed
 */
public record ImportWindowResult(ArchiveResult archive, List<WriteOutcome> outcomes) {

  /** Copies the outcomes. */
  public ImportWindowResult {
    Objects.requireNonNull(archive, "archive");
    outcomes = List.copyOf(outcomes);
  }
}
