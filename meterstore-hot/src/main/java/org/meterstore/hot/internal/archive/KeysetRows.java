package org.meterstore.hot.internal.archive;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.IntConsumer;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.ColumnType;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.internal.sql.Database;
import org.meterstore.hot.internal.sql.Identifiers;

/**
 * The rows of one partition in primary-key order, one chunk per query: the first query takes the
 * first {@code chunkRows} rows, each later one those after the last key seen. A keyset walk needs
 * no open transaction or server-side cursor between chunks, so a run that stops (or crashes) half
 * way leaves nothing open, and memory holds one chunk. Re-iterable; each iterator is independent
 * and not thread-safe.
 */
final class KeysetRows implements Iterable<Object[]> {
  private final Database db;
  private final TableDefinition table;
  private final String partition;
  private final int chunkRows;
  private final IntConsumer beforeChunk;
  private final List<ColumnSpec> columns;
  private final int[] keyPositions;
  private final String first;
  private final String next;

  KeysetRows(
      Database db,
      TableDefinition table,
      String partition,
      int chunkRows,
      IntConsumer beforeChunk) {
    this.db = db;
    this.table = table;
    this.partition = partition;
    this.chunkRows = chunkRows;
    this.beforeChunk = beforeChunk;
    this.columns = table.columns();
    List<String> names = columns.stream().map(ColumnSpec::name).toList();
    this.keyPositions = table.primaryKey().stream().mapToInt(names::indexOf).toArray();
    String select =
        "SELECT " + Identifiers.quoteAll(names) + " FROM " + db.qualified(partition) + " ";
    String order = " ORDER BY " + Identifiers.quoteAll(table.primaryKey()) + " LIMIT ?";
    this.first = select + order;
    this.next =
        select
            + "WHERE ("
            + Identifiers.quoteAll(table.primaryKey())
            + ") > ("
            + params()
            + ")"
            + order;
  }

  private String params() {
    List<String> casts = new ArrayList<>();
    for (int position : keyPositions) {
      casts.add("?::" + sqlType(columns.get(position).type()));
    }
    return String.join(", ", casts);
  }

  private static String sqlType(ColumnType type) {
    return switch (type) {
      case TEXT -> "text";
      case TIMESTAMPTZ -> "timestamptz";
      case DATE -> "date";
      case DECIMAL_18_6, DECIMAL_20_0 -> "numeric";
    };
  }

  @Override
  public Iterator<Object[]> iterator() {
    return new ChunkIterator();
  }

  /** Serves one chunk, then fetches the next after the last key served. */
  private final class ChunkIterator implements Iterator<Object[]> {
    private List<Object[]> chunk;
    private int position;
    private int chunkNumber;

    @Override
    public boolean hasNext() {
      if (chunk == null) {
        chunk = fetch(null);
      } else if (position == chunk.size() && chunk.size() == chunkRows) {
        chunkNumber++;
        beforeChunk.accept(chunkNumber);
        chunk = fetch(chunk.get(chunk.size() - 1));
        position = 0;
      }
      return position < chunk.size();
    }

    @Override
    public Object[] next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return chunk.get(position++);
    }
  }

  private List<Object[]> fetch(Object[] after) {
    return db.transaction(
        () -> "read partition " + partition + " of table " + table.name(),
        c -> {
          try (PreparedStatement s = c.prepareStatement(after == null ? first : next)) {
            int p = 1;
            if (after != null) {
              for (int position : keyPositions) {
                s.setObject(p++, bindable(after[position]));
              }
            }
            s.setInt(p, chunkRows);
            try (ResultSet rs = s.executeQuery()) {
              List<Object[]> rows = new ArrayList<>(chunkRows);
              while (rs.next()) {
                rows.add(row(rs));
              }
              return rows;
            }
          }
        });
  }

  private Object[] row(ResultSet rs) throws SQLException {
    Object[] row = new Object[columns.size()];
    for (int i = 0; i < row.length; i++) {
      row[i] = value(rs, i + 1, columns.get(i).type());
    }
    return row;
  }

  private static Object value(ResultSet rs, int index, ColumnType type) throws SQLException {
    switch (type) {
      case TEXT:
        return rs.getString(index);
      case TIMESTAMPTZ:
        OffsetDateTime t = rs.getObject(index, OffsetDateTime.class);
        return t == null ? null : t.toInstant();
      case DATE:
        return rs.getObject(index, LocalDate.class);
      case DECIMAL_18_6:
      case DECIMAL_20_0:
        return rs.getBigDecimal(index);
      default:
        throw new IllegalStateException("unknown column type " + type);
    }
  }

  private static Object bindable(Object value) {
    return value instanceof Instant i ? i.atOffset(ZoneOffset.UTC) : value;
  }
}
