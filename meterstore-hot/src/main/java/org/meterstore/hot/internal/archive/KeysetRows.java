package org.meterstore.hot.internal.archive;

import java.io.IOException;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.IntConsumer;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.ColumnType;
import org.meterstore.api.table.SqlIdentifiers;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.internal.sql.Database;
import org.postgresql.PGConnection;
import org.postgresql.copy.PGCopyInputStream;

/**
 * The rows of one partition in primary-key order, one chunk per query: the first query takes the
 * first {@code chunkRows} rows, each later one those after the last key seen. A keyset walk needs
 * no open transaction or server-side cursor between chunks, so a run that stops (or crashes) half
 * way leaves nothing open, and memory holds one chunk. Re-iterable; each iterator is independent
 * and not thread-safe.
 *
 * <p>Each chunk is one {@code COPY (SELECT …) TO STDOUT (FORMAT binary)} decoded by {@link
 * BinaryCopyDecoder}: timestamps arrive as microseconds and numerics as base-10000 digits, so no
 * value is parsed from text (the driver's result-set decoding of timestamps and numerics was most
 * of the read's cost).
 */
final class KeysetRows implements Iterable<Object[]> {
  private static final String KEY_SETTING = "meterstore.archival_key_";

  private final Database db;
  private final TableDefinition table;
  private final String partition;
  private final int chunkRows;
  private final IntConsumer beforeChunk;
  private final List<ColumnSpec> columns;
  private final List<ColumnType> types;
  private final int[] keyPositions;
  private final String first;
  private final String next;
  private final String setKey;

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
    this.types = columns.stream().map(ColumnSpec::type).toList();
    List<String> names = columns.stream().map(ColumnSpec::name).toList();
    this.keyPositions = table.primaryKey().stream().mapToInt(names::indexOf).toArray();
    String select =
        "COPY (SELECT " + SqlIdentifiers.quoteAll(names) + " FROM " + db.qualified(partition) + " ";
    // chunkRows is a validated int: no user text reaches the statement.
    String order =
        " ORDER BY "
            + SqlIdentifiers.quoteAll(table.primaryKey())
            + " LIMIT "
            + chunkRows
            + ") TO STDOUT (FORMAT binary)";
    this.first = select + order;
    this.next =
        select
            + "WHERE ("
            + SqlIdentifiers.quoteAll(table.primaryKey())
            + ") > ("
            + keyParameters()
            + ")"
            + order;
    this.setKey = setKeyStatement();
  }

  /**
   * COPY takes no bind parameters, so the last key seen travels as transaction-local settings set
   * by a prepared statement ({@link #setKey}) and read back with {@code current_setting}: a stable
   * expression, which PostgreSQL can use as an index condition of the primary key.
   */
  private String keyParameters() {
    List<String> casts = new ArrayList<>();
    for (int i = 0; i < keyPositions.length; i++) {
      casts.add(
          "current_setting('"
              + KEY_SETTING
              + i
              + "')::"
              + sqlType(columns.get(keyPositions[i]).type()));
    }
    return String.join(", ", casts);
  }

  private String setKeyStatement() {
    List<String> sets = new ArrayList<>();
    for (int i = 0; i < keyPositions.length; i++) {
      sets.add("set_config('" + KEY_SETTING + i + "', ?, true)");
    }
    return "SELECT " + String.join(", ", sets);
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
    private final BinaryCopyDecoder decoder = new BinaryCopyDecoder(types);

    @Override
    public boolean hasNext() {
      if (chunk == null) {
        chunk = fetch(null, decoder);
      } else if (position == chunk.size() && chunk.size() == chunkRows) {
        chunkNumber++;
        beforeChunk.accept(chunkNumber);
        chunk = fetch(chunk.get(chunk.size() - 1), decoder);
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

  private List<Object[]> fetch(Object[] after, BinaryCopyDecoder decoder) {
    return db.transaction(
        () -> "read partition " + partition + " of table " + table.name(),
        c -> {
          if (after != null) {
            try (PreparedStatement s = c.prepareStatement(setKey)) {
              for (int i = 0; i < keyPositions.length; i++) {
                s.setString(i + 1, keyText(after[keyPositions[i]]));
              }
              s.executeQuery().close();
            }
          }
          PGConnection pg = c.unwrap(PGConnection.class);
          try (PGCopyInputStream in = new PGCopyInputStream(pg, after == null ? first : next)) {
            decoder.start(in);
            List<Object[]> rows = new ArrayList<>(Math.min(chunkRows, 1 << 16));
            for (Object[] row = decoder.next(); row != null; row = decoder.next()) {
              rows.add(row);
            }
            return rows;
          } catch (IOException e) {
            throw new SQLException("Cannot decode the binary COPY of " + partition + ": " + e, e);
          }
        });
  }

  /** The text form PostgreSQL parses back to the same key value. */
  private static String keyText(Object value) {
    if (value instanceof BigDecimal d) {
      return d.toPlainString();
    }
    return value.toString();
  }
}
