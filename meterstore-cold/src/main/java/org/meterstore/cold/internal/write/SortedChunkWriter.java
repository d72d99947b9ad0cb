package org.meterstore.cold.internal.write;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.RollingDataWriter;
import org.meterstore.api.table.ContentDigest;
import org.meterstore.api.table.ExtraColumn;
import org.meterstore.api.table.StandardColumn;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.internal.layout.InternalRow;
import org.meterstore.cold.internal.layout.RowConverter;

/**
 * Writes rows as Parquet data files of a table, each file sorted by {@code (malo_id, from)},
 * holding a few thousand rows in memory when the input comes grouped by MaLo and at most one chunk
 * of rows otherwise.
 *
 * <p>Archival's input is the hot partition in primary-key order, which starts with {@code malo_id}:
 * every MaLo's rows come together and the MaLos ascend. Such input is written in blocks of whole
 * MaLos (as soon as {@link #STREAM_BLOCK_ROWS} rows or half a chunk, whichever is less, are held at
 * a MaLo boundary), each sorted by {@code (malo_id, from)} (a MaLo's channels are merged by {@code
 * from}) and appended to the open file of each row's partition; only a MaLo of more than half a
 * chunk of rows is split. Input in any other order is recognised at the first MaLo that does not
 * ascend and is from then on sorted and written in chunks of {@code chunkRows} rows.
 *
 * <p>A file only ever receives keys in non-decreasing order: a row that would break it ends its
 * partition's file and starts a new one, so every file is sorted whatever the input. Once the open
 * files hold {@code chunkRows} rows they end (at a MaLo boundary for grouped input), so files cover
 * narrow, mostly disjoint {@code malo_id} ranges that file statistics prune for a location's query;
 * files also roll at the target size. A failure deletes every file this call wrote.
 *
 * <p>Rows are written in Iceberg's internal representation ({@link RowConverter#toInternal}:
 * microseconds, days) through {@link InternalParquetWriterFactory}; the partition key is computed
 * once per run of rows that share it.
 */
public final class SortedChunkWriter {
  /**
   * Files open at once, one per partition; a row of another partition ends the least recently
   * written one. A window lies in one or two months, so this only bites for corrections spread over
   * many partitions, and bounds the Parquet buffers they hold.
   */
  static final int MAX_OPEN_FILES = 8;

  /**
   * Rows held before writing while the input comes grouped by MaLo in ascending order. Small, so
   * that archival holds a few thousand rows instead of a chunk, yet large enough that input in
   * another order is recognised (at the first MaLo that does not ascend) before anything is
   * written, and is then sorted in chunks.
   */
  static final int STREAM_BLOCK_ROWS = 4096;

  private final Table table;
  private final TableDefinition definition;
  private final int chunkRows;
  private final long targetFileSizeBytes;
  private final int maloPosition;
  private final int fromPosition;
  private final int obisPosition;
  private final int[] identityPositions;
  private final boolean monthly;

  /** A writer into {@code table}'s current schema and spec. */
  public SortedChunkWriter(
      Table table, TableDefinition definition, int chunkRows, long targetFileSizeBytes) {
    this.table = table;
    this.definition = definition;
    this.chunkRows = chunkRows;
    this.targetFileSizeBytes = targetFileSizeBytes;
    List<String> names =
        table.schema().columns().stream().map(f -> f.name()).collect(Collectors.toList());
    this.maloPosition = names.indexOf(StandardColumn.MALO_ID.columnName());
    this.fromPosition = names.indexOf(StandardColumn.FROM.columnName());
    this.obisPosition = names.indexOf(StandardColumn.OBIS_CODE.columnName());
    this.identityPositions =
        definition.identityColumns().stream().mapToInt(c -> names.indexOf(c.name())).toArray();
    this.monthly = monthly(table, definition);
  }

  /**
   * Whether {@code table}'s current spec partitions by nothing but identity columns of {@code
   * definition} and {@code month(from)}: then rows of one UTC month with equal identity values
   * share a partition. (The layout check refuses other specs when a table is opened; this guards
   * against one evolved since.)
   */
  public static boolean monthly(Table table, TableDefinition definition) {
    Schema schema = table.schema();
    Set<String> identity =
        definition.identityColumns().stream().map(ExtraColumn::name).collect(Collectors.toSet());
    for (PartitionField field : table.spec().fields()) {
      String source = schema.findColumnName(field.sourceId());
      boolean known =
          field.transform().isIdentity()
              ? identity.contains(source)
              : StandardColumn.FROM.columnName().equals(source)
                  && "month".equals(field.transform().toString());
      if (!known) {
        return false;
      }
    }
    return true;
  }

  /** The files written and the digest of the rows written. */
  public record Written(List<DataFile> files, ContentDigest digest) {}

  /**
   * Writes every row of {@code rows}; {@code check} sees each row first and may throw to abort. On
   * any failure the files written so far are deleted and the failure is rethrown.
   */
  public Written write(Iterator<Object[]> rows, Consumer<Object[]> check) {
    RowConverter converter = new RowConverter(definition, table.schema());
    ContentDigest.Accumulator digest = ContentDigest.accumulator(definition);
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, 1, 0)
            .format(FileFormat.PARQUET)
            .operationId(UUID.randomUUID().toString())
            .build();
    OpenFiles open = new OpenFiles(new InternalParquetWriterFactory(table), files);
    try {
      Partitioner partitioner = new Partitioner();
      // Rows not yet written: while the input comes grouped by MaLo in ascending order, fewer
      // than a block plus the current MaLo's; otherwise at most one chunk.
      List<Keyed> pending = new ArrayList<>();
      // Half a chunk at most, so that a MaLo is split only when it has more than half a chunk of
      // rows.
      int block = Math.max(1, Math.min(chunkRows / 2, STREAM_BLOCK_ROWS));
      boolean grouped = true;
      Keyed previous = null;
      while (rows.hasNext()) {
        Object[] row = rows.next();
        check.accept(row);
        digest.add(row);
        Keyed keyed = partitioner.keyed(converter.toInternal(row));
        if (previous != null && !keyed.malo().equals(previous.malo())) {
          grouped &= keyed.malo().compareTo(previous.malo()) > 0;
          if (grouped && pending.size() >= block) {
            open.append(pending, false); // every MaLo in it is complete
          }
        }
        if (pending.size() >= chunkRows) {
          open.append(pending, false);
        }
        pending.add(keyed);
        previous = keyed;
      }
      open.append(pending, true);
      open.closeAll();
      return new Written(List.copyOf(open.written), digest.digest());
    } catch (RuntimeException e) {
      open.abort();
      deleteQuietly(table.io(), open.written);
      throw e;
    }
  }

  /** Deletes {@code files}; failures are ignored (orphan removal reclaims what remains). */
  public static void deleteQuietly(FileIO io, List<DataFile> files) {
    for (DataFile f : files) {
      try {
        io.deleteFile(f.location());
      } catch (RuntimeException e) {
        // Left for orphan-file removal; a delete failure must not hide the original error.
      }
    }
  }

  /** One record with its partition and its sort key: the MaLo id and {@code from} in micros. */
  private record Keyed(InternalRow record, Partition partition, String malo, long from) {}

  private static final Comparator<Keyed> BY_MALO_FROM =
      (a, b) -> {
        if (a.malo() != b.malo()) {
          int c = a.malo().compareTo(b.malo());
          if (c != 0) {
            return c;
          }
        }
        return Long.compare(a.from(), b.from());
      };

  /**
   * A partition of the input, one object per distinct partition key, with its open file (if any)
   * and the last key that file received.
   */
  private static final class Partition {
    final PartitionKey key;
    RollingDataWriter<StructLike> writer;
    String lastMalo;
    long lastFrom;

    final BlockCounts block = new BlockCounts();

    Partition(PartitionKey key) {
      this.key = key;
    }

    /** Whether {@code k} may follow the open file's last row without breaking its order. */
    boolean continues(Keyed k) {
      if (k.malo() != lastMalo) {
        int c = k.malo().compareTo(lastMalo);
        if (c != 0) {
          return c > 0;
        }
      }
      return k.from() >= lastFrom;
    }
  }

  /** The open files, at most {@link #MAX_OPEN_FILES}, and the files already closed. */
  private final class OpenFiles {
    private final InternalParquetWriterFactory factory;
    private final OutputFileFactory files;
    // Access order: the eldest entry is the least recently written partition.
    private final LinkedHashMap<Partition, Boolean> open = new LinkedHashMap<>(16, 0.75f, true);
    final List<DataFile> written = new ArrayList<>();
    private long rowsOpen;

    OpenFiles(InternalParquetWriterFactory factory, OutputFileFactory files) {
      this.factory = factory;
      this.files = files;
    }

    /**
     * Sorts {@code rows} by {@code (malo_id, from)} (stable, and about linear for rows already
     * grouped by MaLo), appends them to their partitions' files and empties the list; {@code last}
     * when no rows follow.
     */
    void append(List<Keyed> rows, boolean last) {
      if (rows.isEmpty()) {
        return;
      }
      rows.sort(BY_MALO_FROM);
      countBlock(rows);
      // Files end after this block when it is the last or fills the chunk: then a file opened
      // now receives rows of this block only, and its counts are exact.
      boolean exact = last || rowsOpen + rows.size() >= chunkRows;
      long bound = exact ? 0 : chunkRows - rowsOpen + rows.size();
      PartitionSpec spec = table.spec();
      for (Keyed k : rows) {
        Partition p = k.partition();
        if (p.writer != null && !p.continues(k)) {
          close(p);
        }
        if (p.writer == null) {
          if (open.size() >= MAX_OPEN_FILES) {
            close(open.keySet().iterator().next());
          }
          InternalParquetWriterFactory sized = factory.sized(p.block.sizing(exact, bound));
          p.writer =
              new RollingDataWriter<>(sized, files, table.io(), targetFileSizeBytes, spec, p.key);
        }
        open.put(p, Boolean.TRUE);
        p.writer.write(k.record());
        p.lastMalo = k.malo();
        p.lastFrom = k.from();
      }
      rowsOpen += rows.size();
      rows.clear();
      if (rowsOpen >= chunkRows) {
        closeAll();
      }
    }

    private void countBlock(List<Keyed> rows) {
      for (Keyed k : rows) {
        k.partition().block.reset();
      }
      for (Keyed k : rows) {
        k.partition().block.count(k.malo(), k.record().get(obisPosition));
      }
    }

    private void close(Partition p) {
      open.remove(p);
      RollingDataWriter<StructLike> w = p.writer;
      p.writer = null;
      try {
        w.close();
      } catch (IOException e) {
        // Files it finished before are not known here: orphan removal reclaims them.
        throw new UncheckedIOException(e);
      }
      written.addAll(w.result().dataFiles());
    }

    void closeAll() {
      for (Partition p : List.copyOf(open.keySet())) {
        close(p);
      }
      rowsOpen = 0;
    }

    /** Closes every open file after a failure, keeping what was written so it can be deleted. */
    void abort() {
      for (Partition p : List.copyOf(open.keySet())) {
        try {
          close(p);
        } catch (RuntimeException e) {
          // The original failure is what the caller sees; the file is left for orphan removal.
        }
      }
    }
  }

  /**
   * Computes rows' partitions, one {@link Partition} per distinct key. When the spec is
   * MeterStore's {@code identity(<identity columns>)…, month(from)} (see {@link #monthly}), a row
   * whose {@code from} lies in the previous row's month and whose identity values equal the
   * previous row's has the previous row's partition: the common case (a window lies in one month),
   * which then costs two comparisons instead of the transforms and a key. Any other spec computes
   * every row's key.
   */
  private final class Partitioner {
    private final PartitionKey scratch = new PartitionKey(table.spec(), table.schema());
    private final Map<PartitionKey, Partition> seen = new HashMap<>();
    private Partition last;
    private final Object[] lastIdentity = new Object[identityPositions.length];
    private long monthStart;
    private long monthEnd;

    Keyed keyed(InternalRow record) {
      long micros = (Long) record.get(fromPosition);
      if (last == null
          || !monthly
          || micros < monthStart
          || micros >= monthEnd
          || !sameIdentity(record)) {
        scratch.partition(record);
        if (last == null || !last.key.equals(scratch)) {
          last = seen.computeIfAbsent(scratch.copy(), Partition::new);
        }
        OffsetDateTime start =
            OffsetDateTime.ofInstant(Instant.EPOCH.plus(micros, ChronoUnit.MICROS), ZoneOffset.UTC)
                .truncatedTo(ChronoUnit.DAYS)
                .withDayOfMonth(1);
        monthStart = start.toEpochSecond() * 1_000_000L;
        monthEnd = start.plusMonths(1).toEpochSecond() * 1_000_000L;
        for (int i = 0; i < identityPositions.length; i++) {
          lastIdentity[i] = record.get(identityPositions[i]);
        }
      }
      return new Keyed(record, last, (String) record.get(maloPosition), micros);
    }

    private boolean sameIdentity(InternalRow record) {
      for (int i = 0; i < identityPositions.length; i++) {
        if (!Objects.equals(lastIdentity[i], record.get(identityPositions[i]))) {
          return false;
        }
      }
      return true;
    }
  }
}
