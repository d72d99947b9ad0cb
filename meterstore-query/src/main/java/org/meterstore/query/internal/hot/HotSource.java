package org.meterstore.query.internal.hot;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.hot.pin.ReaderPin;
import org.meterstore.query.internal.exec.Columns;
import org.meterstore.query.internal.exec.RowEnumerable;
import org.meterstore.query.internal.exec.ScanSource;
import org.meterstore.query.internal.exec.ScanSpec;
import org.meterstore.query.internal.predicate.FromRange;
import org.meterstore.query.internal.predicate.FromRanges;
import org.meterstore.query.internal.state.CatalogRuntime;
import org.meterstore.query.internal.state.QueryContext;
import org.meterstore.query.internal.state.TableState;

/**
 * Reads one hot scan. The plan fixes what is read ({@link ScanSpec}, an optional aggregate); each
 * execution binds it to the statement's state: the {@code from} range its parameters give, the hot
 * partitions at or above that execution's W, the SQL over them. It checks that the execution's
 * reader pin still holds, runs the SQL in a read-only transaction with a cursor (rows are streamed,
 * not buffered) and converts each row to Calcite's internal values. The transaction ends when the
 * enumerator closes. Holds no state between executions.
 */
public final class HotSource implements ScanSource {
  private static final int FETCH_SIZE = 1000;

  private final CatalogRuntime runtime;
  private final ScanSpec spec;
  private final HotAggregate aggregate;
  private final List<Columns.Reader> readers;

  /** The hot scan of {@code spec}. */
  public HotSource(CatalogRuntime runtime, ScanSpec spec) {
    this(runtime, spec, null);
  }

  /** The hot scan of {@code spec}, aggregated in PostgreSQL by {@code aggregate} unless null. */
  public HotSource(CatalogRuntime runtime, ScanSpec spec, HotAggregate aggregate) {
    this.runtime = runtime;
    this.spec = spec;
    this.aggregate = aggregate;
    if (aggregate != null) {
      this.readers = aggregate.readers(spec);
    } else {
      List<Columns.Reader> plain = new ArrayList<>();
      for (int column : spec.projects()) {
        plain.add(Columns.reader(spec.type(column)));
      }
      this.readers = List.copyOf(plain);
    }
  }

  /** What an execution in {@code state} reads, for {@code EXPLAIN}: partitions and SQL. */
  @Override
  public Map<String, Object> describe(TableState state) {
    Map<String, Object> terms = new LinkedHashMap<>();
    FromRange range = FromRanges.of(spec.preds(), spec.fromColumn(), null);
    List<PartitionInfo> partitions = state.needsHot(range) ? state.partitionsFor(range) : List.of();
    if (partitions.isEmpty()) {
      terms.put("reads", "nothing now (no hot partition in range)");
      return terms;
    }
    terms.put(
        "partitions",
        partitions.size()
            + " ["
            + partitions.get(0).name()
            + ".."
            + partitions.get(partitions.size() - 1).name()
            + "]");
    terms.put("sql", sql(state, partitions).sql());
    return terms;
  }

  private HotSql sql(TableState state, List<PartitionInfo> partitions) {
    return HotSql.of(spec, partitions, runtime.hot().schema(), state.boundary(), aggregate);
  }

  @Override
  public Enumerable<Object[]> scan(DataContext root) {
    FromRange range = FromRanges.of(spec.preds(), spec.fromColumn(), root);
    QueryContext context = runtime.current();
    TableState state = context.state(spec.def(), spec.mode(), range);
    if (!state.needsHot(range)) {
      return RowEnumerable.empty();
    }
    List<PartitionInfo> partitions = state.partitionsFor(range);
    if (partitions.isEmpty()) {
      return RowEnumerable.empty();
    }
    ReaderPin pin = context.pinFor(state, partitions);
    HotSql sql = sql(state, partitions);
    return new RowEnumerable(
        runtime.metrics(),
        state.def().name(),
        "hot",
        root,
        () -> open(root, context, pin, sql, partitions));
  }

  private RowEnumerable.Cursor open(
      DataContext root,
      QueryContext context,
      ReaderPin pin,
      HotSql sql,
      List<PartitionInfo> partitions) {
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
      return new JdbcCursor(c, context, rs, readers, action);
    } catch (SQLException e) {
      closeQuietly(c);
      throw translate(action, e, partitions);
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

  private MeterStoreException translate(
      String action, SQLException e, List<PartitionInfo> partitions) {
    if ("42P01".equals(e.getSQLState())) {
      return new MeterStoreException(
          ErrorKind.QUERY,
          true,
          action
              + ": a partition of window "
              + window(partitions)
              + " was dropped after the query started ("
              + e.getMessage()
              + "); run the query again",
          e);
    }
    return new MeterStoreException(ErrorKind.STORAGE, action + ": " + e.getMessage(), e);
  }

  private static String window(List<PartitionInfo> partitions) {
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

  /**
   * Streams a result set; closing it hands the connection to the execution, which ends the
   * transaction together with its pin release, or else rolls back and closes the connection.
   */
  private static final class JdbcCursor implements RowEnumerable.Cursor {
    private final Connection connection;
    private final QueryContext context;
    private final ResultSet rs;
    private final List<Columns.Reader> readers;
    private final String action;

    JdbcCursor(
        Connection c,
        QueryContext context,
        ResultSet rs,
        List<Columns.Reader> readers,
        String action) {
      this.connection = c;
      this.context = context;
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
      if (!context.park(connection)) {
        closeQuietly(connection);
      }
    }
  }
}
