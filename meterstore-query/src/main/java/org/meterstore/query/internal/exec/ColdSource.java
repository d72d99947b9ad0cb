package org.meterstore.query.internal.exec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeSet;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.ColumnType;
import org.meterstore.api.table.StandardColumn;
import org.meterstore.api.table.VersionOrder;
import org.meterstore.cold.snapshot.SnapshotView;

/**
 * Reads one cold scan. Each execution binds it to the statement's state: the snapshot that
 * execution pinned, its W as the upper bound of {@code from}, merge elision decided from that
 * snapshot's files. The pushed predicates become an Iceberg filter (partition pruning, file and
 * row-group statistics), only the needed columns are read, and versions are resolved in memory
 * unless {@link MergeElision} proved it unnecessary. The predicates that must hold exactly (the
 * read mode's, the boundary) are re-checked on every row. Holds no state between executions.
 */
public final class ColdSource implements ScanSource {
  private final CatalogRuntime runtime;
  private final ScanSpec spec;

  /** The cold scan of {@code spec}. */
  public ColdSource(CatalogRuntime runtime, ScanSpec spec) {
    this.runtime = runtime;
    this.spec = spec;
  }

  /** Whether resolution may be skipped in {@code state}, and why. */
  private MergeElision.Decision elision(TableState state) {
    if (!spec.resolve()) {
      return new MergeElision.Decision(true, "versions relation");
    }
    if (state.coldSnapshot() == null || state.snapshotId() == null) {
      return new MergeElision.Decision(false, "no snapshot");
    }
    Expression planFilter = new IcebergFilters(spec, null).and(exact(spec.below(), state));
    try {
      return MergeElision.decide(state.coldSnapshot(), planFilter);
    } catch (RuntimeException e) {
      throw unreachable(e);
    }
  }

  @Override
  public Map<String, Object> describe(TableState state) {
    Map<String, Object> terms = new LinkedHashMap<>();
    FromRange range = FromRanges.of(spec.preds(), spec.fromColumn(), null);
    if (!state.needsCold(range)) {
      terms.put("reads", "nothing now (range at or above W)");
      return terms;
    }
    terms.put("snapshot", state.coldFailure() != null ? "unreachable" : state.snapshotId());
    MergeElision.Decision elision =
        state.snapshotId() == null
            ? new MergeElision.Decision(false, "no snapshot")
            : elision(state);
    terms.put("filter", new IcebergFilters(spec, null).and(pushed(state, elision)).toString());
    if (spec.resolve()) {
      terms.put(
          "resolution",
          (elision.elided() ? "elided" : "row_number") + " (" + elision.reason() + ")");
    }
    return terms;
  }

  /** The predicates that act before resolution, plus the boundary and the read mode's. */
  private List<Pred> exact(List<Pred> preds, TableState state) {
    List<Pred> out = new ArrayList<>(preds);
    out.addAll(spec.modePreds());
    Instant boundary = state.boundary();
    if (!boundary.equals(Instant.MAX)) {
      out.add(
          new Pred.Cmp(spec.fromColumn(), Pred.Op.LT, new Pred.Literal(boundary.toEpochMilli())));
    }
    return out;
  }

  /** What the Iceberg scan filters on: everything when no resolution happens in between. */
  private List<Pred> pushed(TableState state, MergeElision.Decision elision) {
    return exact(elision.elided() || !spec.resolve() ? spec.preds() : spec.below(), state);
  }

  @Override
  public Enumerable<Object[]> scan(DataContext root) {
    TableState state = runtime.current().state(spec.def(), spec.mode());
    FromRange range = FromRanges.of(spec.preds(), spec.fromColumn(), root);
    if (!state.needsCold(range)) {
      return RowEnumerable.empty();
    }
    state.requireColdReadable();
    if (state.snapshotId() == null) {
      return RowEnumerable.empty();
    }
    MergeElision.Decision elision = elision(state);
    if (spec.resolve()) {
      runtime.metrics().elisionDecided(state.def().name(), elision.elided());
    }
    return new RowEnumerable(
        runtime.metrics(), state.def().name(), "cold", () -> open(root, state, elision));
  }

  private RowEnumerable.Cursor open(
      DataContext root, TableState state, MergeElision.Decision elision) {
    List<Pred> checked = pushed(state, elision);
    Expression filter = new IcebergFilters(spec, root).and(checked);
    BitSet needed = new BitSet();
    for (int p : spec.projects()) {
      needed.set(p);
    }
    checked.forEach(p -> needed.or(p.columns()));
    boolean resolving = spec.resolve() && !elision.elided();
    if (resolving) {
      needed.or(spec.resolutionColumns());
    }
    int[] columns = needed.stream().toArray();
    List<String> names = new ArrayList<>();
    for (int c : columns) {
      names.add(spec.name(c));
    }
    SnapshotView snapshot = state.coldSnapshot();
    PredEval eval = new PredEval(spec, root);
    if (!resolving) {
      CloseableIterable<Record> records = read(snapshot, filter, names);
      Iterator<Object[]> rows = new RecordRows(records.iterator(), columns, spec, eval, checked);
      return new Cursor(records, rows, spec.projects());
    }
    // Versions of one merge key share its `from`, hence its month and its monthly partition: each
    // month is resolved alone, so memory holds one month of the scan's rows, not the whole scan.
    List<Expression> parts = monthParts(snapshot, filter);
    Iterator<Object[]> rows =
        new Iterator<>() {
          private int part;
          private Iterator<Object[]> current = Collections.emptyIterator();

          @Override
          public boolean hasNext() {
            while (!current.hasNext() && part < parts.size()) {
              try (CloseableIterable<Record> records = read(snapshot, parts.get(part++), names)) {
                current =
                    resolve(new RecordRows(records.iterator(), columns, spec, eval, checked))
                        .iterator();
              } catch (IOException e) {
                throw unreachable(new UncheckedIOException(e));
              }
            }
            return current.hasNext();
          }

          @Override
          public Object[] next() {
            if (!hasNext()) {
              throw new NoSuchElementException();
            }
            return current.next();
          }
        };
    return new Cursor(CloseableIterable.empty(), rows, spec.projects());
  }

  private CloseableIterable<Record> read(
      SnapshotView snapshot, Expression filter, List<String> names) {
    try {
      return snapshot.readRecords(filter, names);
    } catch (RuntimeException e) {
      throw unreachable(e);
    }
  }

  /**
   * {@code filter} split by the UTC months of the data files it selects: one filter per month, each
   * also bounding {@code from} to that month. Just {@code filter} when a file's partition spec has
   * no {@code month(from)} field (then the scan is resolved whole).
   */
  private List<Expression> monthParts(SnapshotView snapshot, Expression filter) {
    String from = spec.name(spec.fromColumn());
    int fromId = snapshot.schema().findField(from).fieldId();
    TreeSet<Integer> months = new TreeSet<>();
    try (CloseableIterable<FileScanTask> tasks = snapshot.planFiles(filter)) {
      for (FileScanTask task : tasks) {
        List<PartitionField> fields = task.spec().fields();
        int position = -1;
        for (int i = 0; i < fields.size(); i++) {
          if (fields.get(i).sourceId() == fromId
              && "month".equals(fields.get(i).transform().toString())) {
            position = i;
          }
        }
        Integer month = position < 0 ? null : task.file().partition().get(position, Integer.class);
        if (month == null) {
          return List.of(filter);
        }
        months.add(month);
      }
    } catch (IOException e) {
      throw unreachable(new UncheckedIOException(e));
    } catch (RuntimeException e) {
      throw unreachable(e);
    }
    List<Expression> parts = new ArrayList<>();
    LocalDate epoch = LocalDate.of(1970, 1, 1);
    for (int month : months) {
      long start = micros(epoch.plusMonths(month));
      long end = micros(epoch.plusMonths(month + 1L));
      parts.add(
          Expressions.and(
              filter,
              Expressions.and(
                  Expressions.greaterThanOrEqual(from, start), Expressions.lessThan(from, end))));
    }
    return parts;
  }

  private static long micros(LocalDate day) {
    return day.atStartOfDay(ZoneOffset.UTC).toEpochSecond() * 1_000_000L;
  }

  private MeterStoreException unreachable(RuntimeException e) {
    if (e instanceof MeterStoreException m) {
      return m;
    }
    return new MeterStoreException(
        ErrorKind.STORAGE, "Cannot read the cold tier of table " + spec.def().name() + ": " + e, e);
  }

  private List<Object[]> resolve(Iterator<Object[]> rows) {
    int[] group = spec.groupColumns().stream().toArray();
    int version = spec.column(StandardColumn.VERSION);
    int recordedAt = spec.column(StandardColumn.RECORDED_AT);
    Map<List<Object>, Object[]> winners = new HashMap<>();
    while (rows.hasNext()) {
      Object[] row = rows.next();
      List<Object> key = new ArrayList<>(group.length);
      for (int g : group) {
        key.add(row[g]);
      }
      winners.merge(key, row, (a, b) -> wins(b, a, version, recordedAt) ? b : a);
    }
    return new ArrayList<>(winners.values());
  }

  private static boolean wins(Object[] candidate, Object[] held, int version, int recordedAt) {
    return VersionOrder.outranks(
        (BigDecimal) candidate[version],
        (Long) candidate[recordedAt],
        (BigDecimal) held[version],
        (Long) held[recordedAt]);
  }

  /** Iceberg records as full-width rows of internal values, filtered exactly. */
  private final class RecordRows implements Iterator<Object[]> {
    private final Iterator<Record> records;
    private final int[] columns;
    private final ScanSpec spec;
    private final PredEval eval;
    private final List<Pred> checked;
    // resolved once: TableDefinition.columns() builds a new list on every call
    private final int width;
    private final String[] names;
    private final ColumnType[] types;
    private Object[] next;

    RecordRows(
        Iterator<Record> records, int[] columns, ScanSpec spec, PredEval eval, List<Pred> checked) {
      this.records = records;
      this.columns = columns;
      this.spec = spec;
      this.eval = eval;
      this.checked = checked;
      List<ColumnSpec> all = spec.def().columns();
      this.width = all.size();
      this.names = new String[width];
      this.types = new ColumnType[width];
      for (int c = 0; c < width; c++) {
        names[c] = all.get(c).name();
        types[c] = all.get(c).type();
      }
    }

    @Override
    public boolean hasNext() {
      try {
        while (next == null && records.hasNext()) {
          Record r = records.next();
          Object[] row = new Object[width];
          for (int c : columns) {
            row[c] = Columns.fromIceberg(r.getField(names[c]), types[c]);
          }
          if (eval.all(checked, row)) {
            next = row;
          }
        }
      } catch (RuntimeException e) {
        throw unreachable(e);
      }
      return next != null;
    }

    @Override
    public Object[] next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      Object[] row = next;
      next = null;
      return row;
    }
  }

  /** Projects full-width rows to the output columns; closing closes the Iceberg scan. */
  private static final class Cursor implements RowEnumerable.Cursor {
    private final CloseableIterable<Record> records;
    private final Iterator<Object[]> rows;
    private final int[] projects;

    Cursor(CloseableIterable<Record> records, Iterator<Object[]> rows, int[] projects) {
      this.records = records;
      this.rows = rows;
      this.projects = projects;
    }

    @Override
    public Object[] next() {
      if (!rows.hasNext()) {
        return null;
      }
      Object[] full = rows.next();
      Object[] out = new Object[projects.length];
      for (int i = 0; i < projects.length; i++) {
        out[i] = full[projects[i]];
      }
      return out;
    }

    @Override
    public void close() {
      try {
        records.close();
      } catch (IOException e) {
        // the scan is over; nothing to recover
      }
    }
  }
}
