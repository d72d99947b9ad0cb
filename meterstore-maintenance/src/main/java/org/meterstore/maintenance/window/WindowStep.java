package org.meterstore.maintenance.window;

import java.time.Instant;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.table.ContentDigest;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.commit.ArchiveRequest;
import org.meterstore.cold.commit.ArchiveResult;
import org.meterstore.cold.commit.ArchiveStatus;
import org.meterstore.cold.commit.ImportWindowResult;
import org.meterstore.cold.table.ColdTable;

/**
 * Commits one window of rows at W, the same way for the archival run and the history import: asks
 * the lease, commits the window to the cold tier (which asks the lease again before the catalog),
 * records the W it landed with as the hot tier's committed watermark and floor, and requires the
 * commit's digest to equal what its source holds. Only the {@link Source} differs.
 */
public final class WindowStep {
  /** Where a window's rows come from, and what they must add up to. */
  public interface Source {
    /** Commits the rows of {@code request}'s window to {@code cold}, asking {@code leaseHeld}. */
    ImportWindowResult commit(ColdTable cold, ArchiveRequest request, BooleanSupplier leaseHeld);

    /**
     * The digest the committed rows must have, known once the commit landed (a hot partition is
     * digested after its rows were committed; a batch from its non-duplicate readings).
     */
    ContentDigest expected(List<WriteOutcome> outcomes);

    /** The source in an error: "partition p" or "the import chunk". */
    String describe();
  }

  /**
   * What a window step did.
   *
   * @param archive the cold commit's result; not committed when the lease was lost or another
   *     archiver won (nothing was written then)
   * @param outcomes one per submitted reading for an import; empty for a partition
   * @param floor the hot floor now in force, or null when it could not be recorded yet (or nothing
   *     was committed)
   */
  public record Outcome(ArchiveResult archive, List<WriteOutcome> outcomes, Instant floor) {
    /** Copies the outcomes. */
    public Outcome {
      outcomes = List.copyOf(outcomes);
    }

    /** Whether the window was committed. */
    public boolean committed() {
      return archive.committed();
    }
  }

  private final ColdTable cold;
  private final TableDefinition table;
  private final TierWatermark watermark;

  /** A step for {@code table}. */
  public WindowStep(ColdTable cold, TableDefinition table, TierWatermark watermark) {
    this.cold = cold;
    this.table = table;
    this.watermark = watermark;
  }

  /**
   * Commits {@code request}'s window from {@code source} under the lease {@code leaseHeld} asks.
   *
   * @throws MeterStoreException {@code INVARIANT_VIOLATED} when the committed digest differs from
   *     the source's (the commit stays; its partition is never dropped until an operator resolves
   *     it)
   */
  public Outcome commit(ArchiveRequest request, Source source, BooleanSupplier leaseHeld) {
    if (!leaseHeld.getAsBoolean()) {
      return new Outcome(
          new ArchiveResult(
              ArchiveStatus.LEASE_LOST, -1, request.from(), ContentDigest.EMPTY, 0, false),
          List.of(),
          null);
    }
    ImportWindowResult result = source.commit(cold, request, leaseHeld);
    ArchiveResult archive = result.archive();
    if (!archive.committed()) {
      return new Outcome(archive, List.of(), null);
    }
    Instant floor = watermark.recordCommitted(archive.watermark());
    ContentDigest expected = source.expected(result.outcomes());
    if (!expected.equals(archive.digest())) {
      throw new MeterStoreException(
          ErrorKind.INVARIANT_VIOLATED,
          "Cannot archive window "
              + request.range()
              + " of table "
              + table.name()
              + ": the cold commit carries "
              + archive.digest().toSummaryValue()
              + " but "
              + source.describe()
              + " holds "
              + expected.toSummaryValue()
              + "; the commit stays, and a partition behind it is kept detached and never dropped"
              + " until an operator resolves it");
    }
    return new Outcome(archive, result.outcomes(), floor);
  }
}
