package org.meterstore.cold.internal.write;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.io.FileIO;
import org.meterstore.api.table.ContentDigest;
import org.meterstore.cold.commit.Encoders;

/**
 * Writes rows that come grouped by ascending {@code malo_id} (an import chunk after its
 * classification) in contiguous slices cut at MaLo boundaries, each slice by a {@link
 * SortedChunkWriter} of its own: the calling thread encodes the first, the {@link Encoders} the
 * others at the same time. Files of different slices cover disjoint MaLo ranges, as the files of
 * one writer do; a chunk only ends up in more of them. A slice holds at least {@link
 * #MIN_SLICE_ROWS} rows, so a small chunk stays one write. When any slice fails, the files of every
 * slice are deleted (after all have stopped) and the first failure is rethrown.
 */
public final class SlicedWrite {
  /** The fewest rows worth a slice (and a file) of their own. */
  static final int MIN_SLICE_ROWS = 16_384;

  private SlicedWrite() {}

  /**
   * Writes {@code rows}; {@code check} sees each row first, on whichever thread encodes it.
   *
   * @param writers a new writer per slice
   * @param maloIndex the position of {@code malo_id} in a row
   */
  public static SortedChunkWriter.Written write(
      Supplier<SortedChunkWriter> writers,
      List<Object[]> rows,
      int maloIndex,
      Consumer<Object[]> check,
      Encoders encoders,
      FileIO io) {
    List<List<Object[]>> slices = slices(rows, maloIndex, encoders.threads() + 1);
    if (slices.size() == 1) {
      return writers.get().write(rows.iterator(), check);
    }
    List<CompletableFuture<SortedChunkWriter.Written>> others = new ArrayList<>();
    for (List<Object[]> slice : slices.subList(1, slices.size())) {
      SortedChunkWriter writer = writers.get();
      others.add(
          CompletableFuture.supplyAsync(
              () -> writer.write(slice.iterator(), check), encoders.executor()));
    }
    List<SortedChunkWriter.Written> done = new ArrayList<>();
    RuntimeException failure = null;
    try {
      done.add(writers.get().write(slices.get(0).iterator(), check));
    } catch (RuntimeException e) {
      failure = e;
    }
    for (CompletableFuture<SortedChunkWriter.Written> f : others) {
      try {
        done.add(f.join());
      } catch (CompletionException e) {
        RuntimeException cause =
            e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e);
        failure = failure == null ? cause : failure;
      }
    }
    List<DataFile> files = new ArrayList<>();
    ContentDigest digest = ContentDigest.EMPTY;
    for (SortedChunkWriter.Written w : done) {
      files.addAll(w.files());
      digest = digest.plus(w.digest());
    }
    if (failure != null) {
      SortedChunkWriter.deleteQuietly(io, files);
      throw failure;
    }
    return new SortedChunkWriter.Written(List.copyOf(files), digest);
  }

  /**
   * At most {@code count} contiguous slices of about equal size, each at least {@link
   * #MIN_SLICE_ROWS} rows, every cut between two MaLos.
   */
  static List<List<Object[]>> slices(List<Object[]> rows, int maloIndex, int count) {
    int n = Math.max(1, Math.min(count, rows.size() / MIN_SLICE_ROWS));
    List<List<Object[]>> slices = new ArrayList<>(n);
    int start = 0;
    for (int k = 1; k < n; k++) {
      int cut = Math.max(start + 1, (int) ((long) rows.size() * k / n));
      while (cut < rows.size() && rows.get(cut)[maloIndex].equals(rows.get(cut - 1)[maloIndex])) {
        cut++;
      }
      if (cut >= rows.size()) {
        break;
      }
      slices.add(rows.subList(start, cut));
      start = cut;
    }
    slices.add(rows.subList(start, rows.size()));
    return slices;
  }
}
