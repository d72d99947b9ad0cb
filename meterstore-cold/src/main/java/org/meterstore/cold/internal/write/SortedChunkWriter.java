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
import org.apache.iceberg.io.ClusteredDataWriter;
import org.apache.iceberg.io.DataWriteResult;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.PartitioningWriter;
import org.meterstore.api.table.ExtraColumn;
import org.meterstore.api.table.StandardColumn;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.commit.ContentDigest;
import org.meterstore.cold.internal.layout.InternalRow;
import org.meterstore.cold.internal.layout.RowConverter;

/**
 * Writes rows as Parquet data files of a table, sorted by partition, {@code malo_id} and {@code
 * from}, holding at most one chunk of rows in memory.
 *
 * <p>Why chunks: archival streams a partition that can be larger than memory. Each chunk is sorted
 * and written with one clustered writer, so every file is sorted by {@code (malo_id, from)}, but a
 * partition that spans several chunks gets several files whose key ranges may overlap. With the
 * default chunk of 100 000 rows and daily windows of a few million rows that means a few dozen
 * files per window; compaction (out of band) can merge them. A failure deletes every file this call
 * wrote.
 *
 * <p>Rows are buffered and written in Iceberg's internal representation ({@link
 * RowConverter#toInternal}: microseconds, days) through {@link InternalParquetWriterFactory}, and
 * each buffered row carries a primitive sort key; the partition key is computed once per run of
 * rows that share it.
 */
public final class SortedChunkWriter {
  private final Table table;
  private final TableDefinition definition;
  private final int chunkRows;
  private final long targetFileSizeBytes;
  private final int maloPosition;
  private final int fromPosition;
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
    InternalParquetWriterFactory factory = new InternalParquetWriterFactory(table);
    List<DataFile> written = new ArrayList<>();
    try {
      List<Keyed> chunk = new ArrayList<>(Math.min(chunkRows, 1 << 20));
      Partitioner partitioner = new Partitioner();
      while (rows.hasNext()) {
        Object[] row = rows.next();
        check.accept(row);
        digest.add(row);
        chunk.add(partitioner.keyed(converter.toInternal(row)));
        if (chunk.size() >= chunkRows) {
          flush(chunk, partitioner, factory, files, written);
          chunk.clear();
        }
      }
      flush(chunk, partitioner, factory, files, written);
      return new Written(List.copyOf(written), digest.digest());
    } catch (RuntimeException e) {
      deleteQuietly(table.io(), written);
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

  /**
   * One record with its sort key: the rank of its partition among the chunk's partitions (by path),
   * the MaLo id and {@code from} in microseconds.
   */
  private record Keyed(InternalRow record, Partition partition, String malo, long from) {}

  /** A partition of the chunk: computed once per run of rows that share it. */
  private static final class Partition {
    final PartitionKey key;
    final String path;
    int rank;

    Partition(PartitionKey key) {
      this.key = key;
      this.path = key.toPath();
    }
  }

  private static final Comparator<Keyed> ORDER =
      (a, b) -> {
        if (a.partition() != b.partition()) {
          int c = Integer.compare(a.partition().rank, b.partition().rank);
          if (c != 0) {
            return c;
          }
        }
        if (a.malo() != b.malo()) {
          int c = a.malo().compareTo(b.malo());
          if (c != 0) {
            return c;
          }
        }
        return Long.compare(a.from(), b.from());
      };

  /**
   * Computes rows' partitions, reusing one key. When the spec is MeterStore's {@code
   * identity(<identity columns>)…, month(from)} (see {@link #monthly}), a row whose {@code from}
   * lies in the previous row's month and whose identity values equal the previous row's has the
   * previous row's partition: the common case (a window lies in one month), which then costs two
   * comparisons instead of the transforms and a key. Any other spec computes every row's key.
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

    /** Ranks the partitions seen by path, for the sort, and forgets them. */
    List<Partition> rankAndReset() {
      List<Partition> partitions = new ArrayList<>(seen.values());
      partitions.sort(Comparator.comparing(p -> p.path));
      for (int i = 0; i < partitions.size(); i++) {
        partitions.get(i).rank = i;
      }
      seen.clear();
      last = null;
      return partitions;
    }
  }

  private void flush(
      List<Keyed> chunk,
      Partitioner partitioner,
      InternalParquetWriterFactory factory,
      OutputFileFactory files,
      List<DataFile> written) {
    if (chunk.isEmpty()) {
      return;
    }
    partitioner.rankAndReset();
    chunk.sort(ORDER);
    PartitionSpec spec = table.spec();
    PartitioningWriter<StructLike, DataWriteResult> writer =
        new ClusteredDataWriter<>(factory, files, table.io(), targetFileSizeBytes);
    try {
      for (Keyed k : chunk) {
        writer.write(k.record(), spec, k.partition().key);
      }
    } finally {
      try {
        writer.close();
        written.addAll(writer.result().dataFiles());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
