package org.meterstore.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;

/**
 * A foreign tool (Spark, a repair script) writing to a cold table with Iceberg's own generic
 * Parquet writer: one data file with the given rows, appended in a commit that carries no W. The
 * rows are whatever the tool wants, here versions that tie with a stored one, which MeterStore must
 * resolve by {@code recorded_at} (DESIGN § 3.3).
 */
final class ForeignWriter {
  private ForeignWriter() {}

  /** Appends {@code rows} to {@code table} as one foreign data file and commit. */
  static void append(Table table, TableDefinition def, List<StoredReading> rows) {
    Schema schema = table.schema();
    PartitionKey partition = new PartitionKey(table.spec(), schema);
    Record first = record(schema, def, rows.get(0));
    partition.partition(new InternalRecordWrapper(schema.asStruct()).wrap(first));
    String path =
        table.locationProvider().newDataLocation("foreign-" + UUID.randomUUID() + ".parquet");
    DataFile file;
    try {
      DataWriter<Record> writer =
          Parquet.writeData(table.io().newOutputFile(path))
              .schema(schema)
              .createWriterFunc(GenericParquetWriter::create)
              .withSpec(table.spec())
              .withPartition(partition)
              .overwrite()
              .build();
      try (writer) {
        for (StoredReading r : rows) {
          writer.write(record(schema, def, r));
        }
      }
      file = writer.toDataFile();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    table.newAppend().appendFile(file).commit();
  }

  private static Record record(Schema schema, TableDefinition def, StoredReading stored) {
    Object[] row = StoredRow.of(def, stored);
    GenericRecord record = GenericRecord.create(schema);
    List<Types.NestedField> fields = schema.columns();
    for (int i = 0; i < fields.size(); i++) {
      record.set(i, internal(fields.get(i).type(), row[i]));
    }
    return record;
  }

  private static Object internal(org.apache.iceberg.types.Type type, Object value) {
    if (value instanceof Instant t) {
      return t.atOffset(ZoneOffset.UTC);
    }
    if (value instanceof BigDecimal d && type instanceof Types.DecimalType decimal) {
      return d.setScale(decimal.scale(), RoundingMode.UNNECESSARY);
    }
    return value;
  }
}
