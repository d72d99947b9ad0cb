package org.meterstore.imports;

import java.util.Objects;
import org.meterstore.api.MeterStoreException;

/**
 * How an import runs.
 *
 * @param chunkRows readings per chunk, at least 1 (default 100 000): each chunk is committed on its
 *     own, memory holds about one chunk (up to twice this when one partition window holds more)
 * @param progress told after each chunk, never null
 */
public record ImportOptions(int chunkRows, ImportProgress progress) {
  /** 100 000 readings per chunk, no progress. */
  public static final ImportOptions DEFAULTS = new ImportOptions(100_000, ImportProgress.NONE);

  /** Checks the values. */
  public ImportOptions {
    if (chunkRows < 1) {
      throw MeterStoreException.invalid("chunkRows", chunkRows, "at least 1");
    }
    Objects.requireNonNull(progress, "progress; use ImportProgress.NONE");
  }

  public ImportOptions withChunkRows(int rows) {
    return new ImportOptions(rows, progress);
  }

  public ImportOptions withProgress(ImportProgress listener) {
    return new ImportOptions(chunkRows, listener);
  }
}
