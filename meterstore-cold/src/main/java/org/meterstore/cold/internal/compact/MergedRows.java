package org.meterstore.cold.internal.compact;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.CloseableIterator;
import org.apache.iceberg.parquet.Parquet;
import org.meterstore.api.table.ContentDigest;
import org.meterstore.api.table.StandardColumn;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.internal.layout.RowConverter;

/**
 * The rows of several data files merged into one stream ordered by {@code (malo_id, from)}, the
 * table's sort order. Every MeterStore file is sorted that way, so a k-way merge of them hands the
 * writer MaLo-grouped, ascending input, which it writes a few thousand rows at a time instead of
 * sorting whole chunks; a file written by another engine in another order still yields every row
 * (the writer then sorts, and its files stay sorted). The digest of every row handed out is kept.
 * Close it to close the files.
 */
final class MergedRows implements Iterator<Object[]>, Closeable {
  private final List<CloseableIterable<Record>> opened = new ArrayList<>();
  private final PriorityQueue<Cursor> queue;
  private final ContentDigest.Accumulator digest;

  private final class Cursor {
    final CloseableIterator<Record> records;
    final RowConverter converter;
    final int order;
    Object[] head;

    Cursor(CloseableIterator<Record> records, RowConverter converter, int order) {
      this.records = records;
      this.converter = converter;
      this.order = order;
    }

    boolean advance() {
      head = records.hasNext() ? converter.toRow(records.next()) : null;
      return head != null;
    }
  }

  MergedRows(Table table, TableDefinition definition, List<DataFile> files) {
    RowConverter converter = new RowConverter(definition, table.schema());
    int malo = converter.indexOf(StandardColumn.MALO_ID.columnName());
    int from = converter.indexOf(StandardColumn.FROM.columnName());
    this.digest = ContentDigest.accumulator(definition);
    this.queue =
        new PriorityQueue<>(
            Math.max(1, files.size()),
            (a, b) -> {
              int c = ((String) a.head[malo]).compareTo((String) b.head[malo]);
              if (c == 0) {
                c = ((Instant) a.head[from]).compareTo((Instant) b.head[from]);
              }
              return c != 0 ? c : Integer.compare(a.order, b.order);
            });
    try {
      for (int i = 0; i < files.size(); i++) {
        CloseableIterable<Record> records = read(table, files.get(i));
        opened.add(records);
        Cursor cursor = new Cursor(records.iterator(), converter, i);
        if (cursor.advance()) {
          queue.add(cursor);
        }
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /** The records of one data file in {@code table}'s current schema. */
  static CloseableIterable<Record> read(Table table, DataFile file) {
    Schema schema = table.schema();
    return Parquet.read(table.io().newInputFile(file.location()))
        .project(schema)
        .createReaderFunc(fileSchema -> GenericParquetReaders.buildReader(schema, fileSchema))
        .build();
  }

  /** The digest of the rows handed out so far. */
  ContentDigest digest() {
    return digest.digest();
  }

  @Override
  public boolean hasNext() {
    return !queue.isEmpty();
  }

  @Override
  public Object[] next() {
    Cursor c = queue.poll();
    if (c == null) {
      throw new NoSuchElementException();
    }
    Object[] row = c.head;
    if (c.advance()) {
      queue.add(c);
    }
    digest.add(row);
    return row;
  }

  @Override
  public void close() {
    IOException failure = null;
    for (CloseableIterable<Record> r : opened) {
      try {
        r.close();
      } catch (IOException e) {
        failure = e;
      }
    }
    opened.clear();
    if (failure != null) {
      throw new UncheckedIOException(failure);
    }
  }
}
