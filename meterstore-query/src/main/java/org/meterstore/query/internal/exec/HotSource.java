package org.meterstore.query.internal.exec;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.hot.pin.ReaderPin;

/**
 * Reads one hot scan: checks that the statement's reader pin still holds, runs the planned SQL in a
 * read-only transaction with a cursor (rows are streamed, not buffered) and converts each row to
 * Calcite's internal values. The transaction ends when the enumerator closes.
 */
public final class HotSource implements ScanSource {
  private static final int FETCH_SIZE = 1000;

  private final CatalogRuntime runtime;
  private final ScanSpec spec;
  private final List<PartitionInfo> partitions;
  private final HotSql sql;
  private final List<Columns.Reader> readers;

  /** The hot scan of {@code spec} over {@code partitions} (non-empty). */
  public HotSource(CatalogRuntime runtime, ScanSpec spec, List<PartitionInfo> partitions) {
    this(runtime, spec, partitions, null);
  }

  /**
   * The hot scan of {@code spec} over {@code partitions} (non-empty), aggregated in PostgreSQL by
   * {@code aggregate} when it is not null.
   */
  public HotSource(
      CatalogRuntime runtime,
      ScanSpec spec,
      List<PartitionInfo> partitions,
      HotAggregate aggregate) {
    this.runtime = runtime;
    this.spec = spec;
    this.partitions = List.copyOf(partitions);
    this.sql =
        HotSql.of(
            spec, this.partitions, runtime.hot().schema(), spec.state().boundary(), aggregate);
    if (aggregate != null) {
      this.readers = aggregate.readers(spec);
    } else {
      List<Columns.Reader> plain = new ArrayList<>();
      for (int column : sql.columns()) {
        plain.add(Columns.reader(spec.type(column)));
      }
      this.readers = List.copyOf(plain);
    }
  }

  /** The SQL text, for plans. */
  public String sql() {
    return sql.sql();
  }

  /** The partitions read, for plans. */
  public List<PartitionInfo> partitions() {
    return partitions;
  }

  @Override
  public Enumerable<Object[]> scan(DataContext root) {
    TableState state = spec.state();
    FromRange range = FromRanges.of(spec.preds(), spec.fromColumn(), root);
    if (!state.needsHot(range)) {
      return RowEnumerable.empty();
    }
    return new RowEnumerable(
        runtime.metrics(), state.def().name(), "hot", () -> open(root, state.pin()));
  }

  private RowEnumerable.Cursor open(DataContext root, ReaderPin pin) {
    requirePinHeld(pin);
    String action = "Cannot read the hot tier of table " + spec.def().name();
    Connection c = null;
    try {
      c = runtime.hotDataSource().getConnection();
      c.setAutoCommit(false);
      c.setReadOnly(true);
      PreparedStatement s = c.prepareStatement(sql.sql());
      s.setFetchSize(FETCH_SIZE);
      int i = 1;
      for (HotSql.Binding b : sql.bindings()) {
        Object value = b.operand().value(root, b.type());
        s.setObject(i++, Columns.toJdbc(value, b.type()));
      }
      ResultSet rs = s.executeQuery();
      return new JdbcCursor(c, rs, readers, action);
    } catch (SQLException e) {
      closeQuietly(c);
      throw translate(action, e);
    }
  }

  private void requirePinHeld(ReaderPin pin) {
    if (pin == null) {
      return;
    }
    Instant now = runtime.clock().instant();
    if (!now.isBefore(pin.expiresAt())) {
      throw new MeterStoreException(
          ErrorKind.QUERY,
          true,
          "Cannot read hot window ["
              + pin.from()
              + ", "
              + pin.to()
              + ") of table "
              + pin.table()
              + ": the statement's reader pin expired at "
              + pin.expiresAt()
              + " (pin ttl "
              + runtime.pinTtl()
              + "), so archival may have dropped its partitions; run the query again",
          null);
    }
  }

  private MeterStoreException translate(String action, SQLException e) {
    if ("42P01".equals(e.getSQLState())) {
      return new MeterStoreException(
          ErrorKind.QUERY,
          true,
          action
              + ": a partition of window "
              + window()
              + " was dropped after the query was planned ("
              + e.getMessage()
              + "); run the query again",
          e);
    }
    return new MeterStoreException(ErrorKind.STORAGE, action + ": " + e.getMessage(), e);
  }

  private String window() {
    return "["
        + partitions.get(0).lowerBound()
        + ", "
        + partitions.get(partitions.size() - 1).upperBound()
        + ")";
  }

  static void closeQuietly(Connection c) {
    if (c != null) {
      try {
        c.rollback();
      } catch (SQLException ignored) {
        // closing anyway
      }
      try {
        c.close();
      } catch (SQLException ignored) {
        // nothing left to do
      }
    }
  }

  /** Streams a result set; closing it rolls back and closes the connection. */
  private static final class JdbcCursor implements RowEnumerable.Cursor {
    private final Connection connection;
    private final ResultSet rs;
    private final List<Columns.Reader> readers;
    private final String action;

    JdbcCursor(Connection c, ResultSet rs, List<Columns.Reader> readers, String action) {
      this.connection = c;
      this.rs = rs;
      this.readers = readers;
      this.action = action;
    }

    @Override
    public Object[] next() {
      try {
        if (!rs.next()) {
          return null;
        }
        Object[] row = new Object[readers.size()];
        for (int i = 0; i < row.length; i++) {
          row[i] = readers.get(i).read(rs, i + 1);
        }
        return row;
      } catch (SQLException e) {
        throw new MeterStoreException(ErrorKind.STORAGE, action + ": " + e.getMessage(), e);
      }
    }

    @Override
    public void close() {
      closeQuietly(connection);
    }
  }
}
