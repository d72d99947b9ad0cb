package org.meterstore.cold.scan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * The requested columns matched to one file's Parquet schema (by Iceberg field id, by name for a
 * file written without ids), with one decoder per column the file has and an all-null vector for a
 * column it lacks.
 */
final class FileColumns {
  private final MessageType projection;
  private final boolean fieldIds;
  private final ChunkDecoder[] decoders;
  private final Types.NestedField[] fields;
  private ColumnVector[] absent = new ColumnVector[0];
  private int absentRows;

  private FileColumns(
      MessageType projection,
      boolean fieldIds,
      ChunkDecoder[] decoders,
      Types.NestedField[] fields) {
    this.projection = projection;
    this.fieldIds = fieldIds;
    this.decoders = decoders;
    this.fields = fields;
  }

  static FileColumns of(MessageType file, List<Types.NestedField> fields) {
    boolean ids = file.getFields().stream().allMatch(f -> f.getId() != null);
    List<org.apache.parquet.schema.Type> found = new ArrayList<>();
    org.apache.parquet.schema.Type[] match = new org.apache.parquet.schema.Type[fields.size()];
    for (int i = 0; i < fields.size(); i++) {
      Types.NestedField field = fields.get(i);
      for (org.apache.parquet.schema.Type t : file.getFields()) {
        boolean same =
            ids ? t.getId().intValue() == field.fieldId() : t.getName().equals(field.name());
        if (same) {
          match[i] = t;
          if (!found.contains(t)) {
            found.add(t);
          }
        }
      }
    }
    MessageType projection = new MessageType(file.getName(), found);
    ChunkDecoder[] decoders = new ChunkDecoder[fields.size()];
    for (int i = 0; i < fields.size(); i++) {
      if (match[i] != null) {
        ColumnDescriptor d = projection.getColumnDescription(new String[] {match[i].getName()});
        decoders[i] = decoder(fields.get(i), d);
      }
    }
    return new FileColumns(projection, ids, decoders, fields.toArray(Types.NestedField[]::new));
  }

  private static ChunkDecoder decoder(Types.NestedField field, ColumnDescriptor d) {
    PrimitiveTypeName physical = d.getPrimitiveType().getPrimitiveTypeName();
    Type type = field.type();
    switch (type.typeId()) {
      case STRING:
        return new TextDecoder(d);
      case DATE:
        return new DateDecoder(d);
      case TIMESTAMP:
        if (physical != PrimitiveTypeName.INT64) {
          break;
        }
        return new LongDecoder(d);
      case DECIMAL:
        int scale = ((Types.DecimalType) type).scale();
        if (physical == PrimitiveTypeName.INT64 || physical == PrimitiveTypeName.INT32) {
          return new LongDecoder(d);
        }
        return new BinaryDecimalDecoder(d, scale);
      default:
        break;
    }
    throw new IllegalArgumentException(
        "Invalid column: " + field.name() + " (" + type + " stored as " + physical + ")");
  }

  MessageType projection() {
    return projection;
  }

  boolean hasFieldIds() {
    return fieldIds;
  }

  void start(PageReadStore pages) {
    start(pages, null, null);
  }

  /**
   * Starts the row group {@code block} (of the file {@code cached} keeps; both null when nothing is
   * kept) whose pages {@code pages} holds.
   */
  void start(PageReadStore pages, BlockMetaData block, CachedFile cached) {
    for (ChunkDecoder d : decoders) {
      if (d == null) {
        continue;
      }
      long chunkStart = cached == null ? 0 : chunkStart(block, d.descriptor);
      d.start(pages.getPageReader(d.descriptor), chunkStart < 0 ? null : cached, chunkStart);
    }
  }

  private static long chunkStart(BlockMetaData block, ColumnDescriptor descriptor) {
    ColumnPath path = ColumnPath.get(descriptor.getPath());
    for (ColumnChunkMetaData c : block.getColumns()) {
      if (c.getPath().equals(path)) {
        return c.getStartingPos();
      }
    }
    return -1;
  }

  /** The vectors of the rows of {@code spans}' current batch, one per requested column. */
  List<ColumnVector> read(RowSpans spans) {
    ColumnVector[] out = new ColumnVector[decoders.length];
    for (int i = 0; i < decoders.length; i++) {
      out[i] = decoders[i] == null ? absent(i, spans.rows()) : decoders[i].read(spans);
    }
    return Arrays.asList(out);
  }

  /** The most rows any column decoded from its pages so far (0 when no column is in the file). */
  long rowsDecoded() {
    long most = 0;
    for (ChunkDecoder d : decoders) {
      if (d != null) {
        most = Math.max(most, d.rowsDecoded());
      }
    }
    return most;
  }

  private ColumnVector absent(int column, int rows) {
    if (absent.length != decoders.length || absentRows < rows) {
      absent = new ColumnVector[decoders.length];
      absentRows = rows;
    }
    if (absent[column] == null) {
      boolean[] nulls = new boolean[absentRows];
      Arrays.fill(nulls, true);
      switch (fields[column].type().typeId()) {
        case STRING:
          absent[column] =
              new TextVector(new int[absentRows], nulls, new ParquetTextDictionary(null));
          break;
        case DATE:
          absent[column] = new IntVector(new int[absentRows], nulls);
          break;
        default:
          absent[column] = new LongVector(new long[absentRows], nulls, null);
      }
    }
    return absent[column];
  }
}
