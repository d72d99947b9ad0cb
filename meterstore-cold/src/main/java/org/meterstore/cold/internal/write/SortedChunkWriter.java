package org.meterstore.cold.internal.write;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.ClusteredDataWriter;
import org.apache.iceberg.io.DataWriteResult;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.PartitioningWriter;
import org.meterstore.api.table.StandardColumn;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.commit.ContentDigest;
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
 */
public final class SortedChunkWriter {
  private final Table table;
  private final TableDefinition definition;
  private final int chunkRows;
  private final long targetFileSizeBytes;

  /** A writer into {@code table}'s current schema and spec. */
  public SortedChunkWriter(
      Table table, TableDefinition definition, int chunkRows, long targetFileSizeBytes) {
    this.table = table;
    this.definition = definition;
    this.chunkRows = chunkRows;
    this.targetFileSizeBytes = targetFileSizeBytes;
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
    GenericFileWriterFactory factory =
        new GenericFileWriterFactory.Builder(table)
            .dataFileFormat(FileFormat.PARQUET)
            .dataSchema(table.schema())
            .dataSortOrder(table.sortOrder())
            .build();
    List<DataFile> written = new ArrayList<>();
    try {
      List<Keyed> chunk = new ArrayList<>();
      while (rows.hasNext()) {
        Object[] row = rows.next();
        check.accept(row);
        digest.add(row);
        chunk.add(keyed(converter.toRecord(row)));
        if (chunk.size() >= chunkRows) {
          flush(chunk, factory, files, written);
          chunk.clear();
        }
      }
      flush(chunk, factory, files, written);
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

  private record Keyed(
      Record record, PartitionKey partition, String path, String malo, OffsetDateTime from) {}

  private Keyed keyed(Record record) {
    PartitionKey key = new PartitionKey(table.spec(), table.schema());
    key.partition(new InternalRecordWrapper(table.schema().asStruct()).wrap(record));
    return new Keyed(
        record,
        key,
        key.toPath(),
        (String) record.getField(StandardColumn.MALO_ID.columnName()),
        (OffsetDateTime) record.getField(StandardColumn.FROM.columnName()));
  }

  private void flush(
      List<Keyed> chunk,
      GenericFileWriterFactory factory,
      OutputFileFactory files,
      List<DataFile> written) {
    if (chunk.isEmpty()) {
      return;
    }
    chunk.sort(
        Comparator.comparing(Keyed::path).thenComparing(Keyed::malo).thenComparing(Keyed::from));
    PartitionSpec spec = table.spec();
    PartitioningWriter<Record, DataWriteResult> writer =
        new ClusteredDataWriter<>(factory, files, table.io(), targetFileSizeBytes);
    try {
      for (Keyed k : chunk) {
        writer.write(k.record(), spec, k.partition());
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
