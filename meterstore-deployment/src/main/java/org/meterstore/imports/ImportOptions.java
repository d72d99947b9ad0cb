package org.meterstore.imports;

import java.util.Objects;
import org.meterstore.api.MeterStoreException;

/**
 * How an import runs. Its memory is bounded by {@code chunkRows × chunksHeld} readings (plus a
 * chunk, at most 100 000 readings, read ahead), whatever the fleet's size.
 *
 * @param chunkRows readings per chunk, at least 1 (default 100 000): each chunk is committed on its
 *     own (a commit and its files cost some 40 ms whatever their size: a month of 2.5 million
 *     readings imported about 10 % faster in chunks of 200 000, for a higher peak heap)
 * @param chunksHeld chunks of readings held at most, at least 1 (default 3): the readings of the
 *     last partition windows are carried into the next chunk (so that a file sorted by day moves W
 *     once per chunk) until the buffer holds this many chunks, which is then committed whole (the
 *     windows it ends in part are completed through the correction path)
 * @param encodingThreads threads that encode one chunk's Parquet files, at least 1 (default: the
 *     available processors); the import starts {@code encodingThreads - 1} of them for its duration
 * @param progress told after each chunk, never null
 */
public record ImportOptions(
    int chunkRows, int chunksHeld, int encodingThreads, ImportProgress progress) {
  /** 100 000 readings per chunk, three chunks held, a thread per processor, no progress. */
  public static final ImportOptions DEFAULTS =
      new ImportOptions(
          100_000, 3, Runtime.getRuntime().availableProcessors(), ImportProgress.NONE);

  /** Checks the values. */
  public ImportOptions {
    if (chunkRows < 1) {
      throw MeterStoreException.invalid("chunkRows", chunkRows, "at least 1");
    }
    if (chunksHeld < 1) {
      throw MeterStoreException.invalid("chunksHeld", chunksHeld, "at least 1");
    }
    if (encodingThreads < 1) {
      throw MeterStoreException.invalid("encodingThreads", encodingThreads, "at least 1");
    }
    Objects.requireNonNull(progress, "progress; use ImportProgress.NONE");
  }

  public ImportOptions withChunkRows(int rows) {
    return new ImportOptions(rows, chunksHeld, encodingThreads, progress);
  }

  public ImportOptions withChunksHeld(int chunks) {
    return new ImportOptions(chunkRows, chunks, encodingThreads, progress);
  }

  public ImportOptions withEncodingThreads(int threads) {
    return new ImportOptions(chunkRows, chunksHeld, threads, progress);
  }

  public ImportOptions withProgress(ImportProgress listener) {
    return new ImportOptions(chunkRows, chunksHeld, encodingThreads, listener);
  }
}
