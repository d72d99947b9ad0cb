package org.meterstore.query.internal.cold.unit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.io.CloseableIterable;
import org.meterstore.api.table.ColumnType;
import org.meterstore.cold.scan.ColumnBatch;
import org.meterstore.query.internal.cold.batch.BatchSink;
import org.meterstore.query.internal.cold.batch.ScanColumns;
import org.meterstore.query.internal.cold.filter.BatchFilter;
import org.meterstore.query.internal.cold.merge.RowBuffer;
import org.meterstore.query.internal.cold.merge.RunResolver;

/**
 * One month (or, for files without a monthly partition, the whole scan) read through Iceberg's
 * generic reader, which applies delete files and needs no sort order: the correctness fallback. The
 * month's rows are gathered into a {@link RowBuffer} (memory bounded by one month), resolved by
 * hashing the merge key when asked, and handed on in batches.
 */
final class RecordsUnit implements ScanUnit {
  private final Expression filter;
  private final boolean resolve;
  private final long weight;

  RecordsUnit(Expression filter, boolean resolve, long weight) {
    this.filter = filter;
    this.resolve = resolve;
    this.weight = weight;
  }

  @Override
  public String path() {
    return "records";
  }

  @Override
  public String resolution() {
    return resolve ? "resolved" : "elided";
  }

  @Override
  public long weight() {
    return weight;
  }

  @Override
  public UnitRun open(UnitContext context) {
    return new UnitRun() {
      private RowBuffer buffer;
      private int[] sel;
      private int n;
      private int emitted;
      private long rows;

      @Override
      public boolean step(BatchSink sink) {
        if (buffer == null) {
          load(context);
        }
        if (emitted >= n) {
          return false;
        }
        int count = Math.min(context.batchRows(), n - emitted);
        int[] part = java.util.Arrays.copyOfRange(sel, emitted, emitted + count);
        emitted += count;
        sink.accept(buffer.batch(), part, count);
        return emitted < n;
      }

      private void load(UnitContext context) {
        ScanColumns columns = context.columns();
        buffer = new RowBuffer(columns, context.batchRows());
        try (CloseableIterable<Record> records =
            context.snapshot().readRecords(filter, columns.nameList())) {
          for (Record r : records) {
            append(buffer, columns, r);
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        rows = buffer.size();
        sel = BatchFilter.identity(new int[Math.max(1, buffer.size())], buffer.size());
        if (buffer.size() == 0) {
          n = 0;
          return;
        }
        ColumnBatch batch = buffer.batch();
        if (!resolve) {
          n = context.all().apply(batch, sel, buffer.size());
          return;
        }
        n = context.before().apply(batch, sel, buffer.size());
        n = winners(columns, n);
        n = context.after().apply(batch, sel, n);
      }

      private int winners(ScanColumns columns, int count) {
        int[] group = new int[columns.groupRest.length + 2];
        group[0] = columns.malo;
        group[1] = columns.from;
        System.arraycopy(columns.groupRest, 0, group, 2, columns.groupRest.length);
        Map<List<Object>, Integer> best = new HashMap<>();
        RunResolver resolver = new RunResolver(columns);
        for (int i = 0; i < count; i++) {
          int row = sel[i];
          List<Object> key = new ArrayList<>(group.length);
          for (int c : group) {
            key.add(value(columns, c, row));
          }
          Integer held = best.putIfAbsent(key, row);
          if (held != null && resolver.outranks(buffer, row, held)) {
            best.put(key, row);
          }
        }
        int kept = 0;
        for (int row : best.values()) {
          sel[kept++] = row;
        }
        java.util.Arrays.sort(sel, 0, kept);
        return kept;
      }

      private Object value(ScanColumns columns, int c, int row) {
        if (buffer.isNull(c, row)) {
          return null;
        }
        ColumnType t = columns.types[c];
        if (t == ColumnType.TEXT || t == ColumnType.DATE) {
          return buffer.getInt(c, row);
        }
        BigDecimal big = buffer.getBig(c, row);
        return big != null ? big : (Object) buffer.getLong(c, row);
      }

      @Override
      public long rowsRead() {
        return rows;
      }

      @Override
      public void close() {
        buffer = null;
      }
    };
  }

  /** Appends record {@code r} in the scan's column representation. */
  static void append(RowBuffer buffer, ScanColumns columns, Record r) {
    int row = buffer.add();
    for (int c = 0; c < columns.types.length; c++) {
      Object v = r.getField(columns.names[c]);
      if (v == null) {
        buffer.setNull(c, row);
        continue;
      }
      switch (columns.types[c]) {
        case TEXT -> buffer.setText(c, row, v.toString());
        case DATE -> buffer.setInt(c, row, (int) ((LocalDate) v).toEpochDay());
        case TIMESTAMPTZ -> {
          OffsetDateTime t = (OffsetDateTime) v;
          buffer.setLong(c, row, t.toEpochSecond() * 1_000_000L + t.getNano() / 1_000);
        }
        default -> {
          BigDecimal d = ((BigDecimal) v).setScale(columns.scale(c));
          if (d.unscaledValue().bitLength() < 64) {
            buffer.setLong(c, row, d.unscaledValue().longValue());
          } else {
            buffer.setBig(c, row, d);
          }
        }
      }
    }
  }
}
