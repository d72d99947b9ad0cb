package org.meterstore.cold.internal.write;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.parquet.Parquet;
import org.meterstore.api.table.StandardColumn;
import org.meterstore.cold.internal.layout.TableLayout;

/**
 * Parquet data writers of a table for rows in Iceberg's internal representation ({@link
 * org.meterstore.cold.internal.layout.InternalRow}): the table's schema, properties (ZSTD, bloom
 * filters, sizes) overridden by MeterStore's encodings ({@link TableLayout#encodingProperties}) and
 * each file's bloom filter sizes and page row limit ({@link BloomSizing}), metrics configuration
 * and sort order, as Iceberg's generic writer factory would use them, but without converting each
 * timestamp to and from an {@code OffsetDateTime}, and with {@link CachingValueWriters}, which
 * convert a value repeated as the same object once, and without parsing Hadoop's default
 * configuration for every file ({@link WithoutHadoopSiteFiles}). Data files only: MeterStore writes
 * no delete files.
 */
final class InternalParquetWriterFactory implements FileWriterFactory<StructLike> {
  private final Table table;
  private final Map<String, String> fileProperties;

  InternalParquetWriterFactory(Table table) {
    this(table, TableLayout.encodingProperties());
  }

  private InternalParquetWriterFactory(Table table, Map<String, String> fileProperties) {
    this.table = table;
    this.fileProperties = fileProperties;
  }

  /**
   * A factory for files whose bloom filters are sized by {@code bloom}, whose timestamps and values
   * are delta-encoded without a dictionary when they hold few rows, and whose pages hold about two
   * locations' rows ({@link TableLayout#pageRows}, from the same counts).
   */
  InternalParquetWriterFactory sized(BloomSizing bloom) {
    Map<String, String> p =
        new LinkedHashMap<>(
            bloom.rows() < TableLayout.SMALL_FILE_ROWS
                ? TableLayout.smallFileEncodingProperties()
                : TableLayout.encodingProperties());
    p.putAll(bloom.properties(table));
    long locations = bloom.distinct().getOrDefault(StandardColumn.MALO_ID.columnName(), 1L);
    p.put(
        TableProperties.PARQUET_PAGE_ROW_LIMIT,
        Integer.toString(TableLayout.pageRows(bloom.rows(), locations)));
    return new InternalParquetWriterFactory(table, p);
  }

  @Override
  public DataWriter<StructLike> newDataWriter(
      EncryptedOutputFile file, PartitionSpec spec, StructLike partition) {
    try {
      return WithoutHadoopSiteFiles.build(
          () -> {
            Parquet.DataWriteBuilder builder = Parquet.writeData(file).forTable(table);
            fileProperties.forEach(builder::set);
            return builder
                .createWriterFunc(CachingValueWriters::create)
                .withSpec(spec)
                .withPartition(partition)
                .withSortOrder(table.sortOrder())
                .overwrite()
                .build();
          });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public EqualityDeleteWriter<StructLike> newEqualityDeleteWriter(
      EncryptedOutputFile file, PartitionSpec spec, StructLike partition) {
    throw new UnsupportedOperationException("MeterStore writes no equality deletes");
  }

  @Override
  public PositionDeleteWriter<StructLike> newPositionDeleteWriter(
      EncryptedOutputFile file, PartitionSpec spec, StructLike partition) {
    throw new UnsupportedOperationException("MeterStore writes no position deletes");
  }
}
