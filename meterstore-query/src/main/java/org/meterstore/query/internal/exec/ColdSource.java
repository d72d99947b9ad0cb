package org.meterstore.query.internal.exec;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.iceberg.expressions.Expression;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.query.internal.cold.ColdRequest;
import org.meterstore.query.internal.cold.ColdRows;
import org.meterstore.query.internal.cold.aggregate.ColdAggregation;
import org.meterstore.query.internal.cold.filter.ColdPred;
import org.meterstore.query.internal.predicate.FromRange;
import org.meterstore.query.internal.predicate.FromRanges;
import org.meterstore.query.internal.predicate.Pred;
import org.meterstore.query.internal.state.CatalogRuntime;
import org.meterstore.query.internal.state.TableState;

/**
 * Reads one cold scan through the engine's {@link org.meterstore.query.internal.cold.ColdExecutor}
 * — rows for Calcite, or, when {@code aggregation} is set, the partial aggregate computed inside
 * the scan. Each execution binds it to the statement's state: the snapshot that execution pinned
 * and its W as the upper bound of {@code from}. The pushed predicates become an Iceberg filter
 * (partition pruning, file and row-group statistics); only the needed columns are read, in column
 * batches; versions are resolved per month unless file statistics prove it unnecessary, file by
 * file. The predicates that must hold exactly (the read mode's, the boundary) are checked on every
 * row. Holds no state between executions.
 */
public final class ColdSource implements ScanSource {
  private final CatalogRuntime runtime;
  private final ScanSpec spec;
  private final ColdAggregation aggregation;

  /** The cold scan of {@code spec}, returning rows. */
  public ColdSource(CatalogRuntime runtime, ScanSpec spec) {
    this(runtime, spec, null);
  }

  /** The cold scan of {@code spec}, returning the partial {@code aggregation} unless null. */
  public ColdSource(CatalogRuntime runtime, ScanSpec spec, ColdAggregation aggregation) {
    this.runtime = runtime;
    this.spec = spec;
    this.aggregation = aggregation;
  }

  /** Whether the scan as a whole may skip resolution in {@code state}, and why (plans, metric). */
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
    if (state.coldFailure() != null) {
      return terms;
    }
    terms.put("filter", new IcebergFilters(spec, null).and(pushed(state)).toString());
    if (spec.resolve()) {
      MergeElision.Decision elision = elision(state);
      terms.put(
          "resolution",
          (elision.elided() ? "elided" : "resolved")
              + " ("
              + elision.reason()
              + "); decided per file when read");
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

  /**
   * What the Iceberg scan filters on: valid before resolution (a file or row group it rules out
   * holds no version of a selected key), so only the predicates over the merge key and scope when
   * versions are resolved.
   */
  private List<Pred> pushed(TableState state) {
    return exact(spec.resolve() ? spec.below() : spec.preds(), state);
  }

  @Override
  public Enumerable<Object[]> scan(DataContext root) {
    FromRange range = FromRanges.of(spec.preds(), spec.fromColumn(), root);
    TableState state = runtime.current().state(spec.def(), spec.mode(), range);
    if (!state.needsCold(range)) {
      return RowEnumerable.empty();
    }
    state.requireColdReadable();
    if (state.snapshotId() == null) {
      return RowEnumerable.empty();
    }
    ColdRequest request = request(root, state);
    String table = state.def().name();
    if (aggregation != null) {
      return new RowEnumerable(
          runtime.metrics(),
          table,
          "cold",
          root,
          () -> new ListCursor(runtime.coldExecutor().aggregate(request, aggregation)));
    }
    return new RowEnumerable(
        runtime.metrics(),
        table,
        "cold",
        root,
        () -> new Cursor(runtime.coldExecutor().rows(request), spec.projects()));
  }

  /**
   * The executor's request for this scan in {@code state} with {@code root}'s parameter values: the
   * planning filter, the exact predicates before and after resolution, and the columns the plan
   * returns.
   */
  private ColdRequest request(DataContext root, TableState state) {
    List<Pred> before = exact(spec.resolve() ? spec.below() : spec.preds(), state);
    List<Pred> after = spec.resolve() ? spec.above() : List.of();
    return new ColdRequest(
        spec.def(),
        state.coldSnapshot(),
        new IcebergFilters(spec, root).and(pushed(state)),
        bind(before, root),
        bind(after, root),
        spec.resolve(),
        spec.projects());
  }

  private List<ColdPred> bind(List<Pred> preds, DataContext root) {
    List<ColdPred> out = new ArrayList<>();
    preds.forEach(p -> out.add(bind(p, root)));
    return out;
  }

  /**
   * {@code p} with its parameters' values from {@code root}, as Calcite's generated code has them.
   */
  private ColdPred bind(Pred p, DataContext root) {
    if (p instanceof Pred.Cmp c) {
      Object value = c.value().value(root, spec.type(c.column()));
      return new ColdPred.Cmp(c.column(), ColdPred.Op.valueOf(c.op().name()), value);
    }
    if (p instanceof Pred.IsNull n) {
      return new ColdPred.IsNull(n.column(), n.negated());
    }
    if (p instanceof Pred.Not n) {
      return new ColdPred.Not(bind(n.part(), root));
    }
    if (p instanceof Pred.And a) {
      return new ColdPred.And(bind(a.parts(), root));
    }
    return new ColdPred.Or(bind(((Pred.Or) p).parts(), root));
  }

  private MeterStoreException unreachable(RuntimeException e) {
    if (e instanceof MeterStoreException m) {
      return m;
    }
    return new MeterStoreException(
        ErrorKind.STORAGE, "Cannot read the cold tier of table " + spec.def().name() + ": " + e, e);
  }

  /** Projects full-width rows to the output columns; closing stops the executor's workers. */
  private static final class Cursor implements RowEnumerable.Cursor {
    private final ColdRows rows;
    private final int[] projects;

    Cursor(ColdRows rows, int[] projects) {
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
      rows.close();
    }
  }

  /** The rows of a partial aggregate, computed already. */
  private static final class ListCursor implements RowEnumerable.Cursor {
    private final List<Object[]> rows;
    private int next;

    ListCursor(List<Object[]> rows) {
      this.rows = rows;
    }

    @Override
    public Object[] next() {
      return next < rows.size() ? rows.get(next++) : null;
    }

    @Override
    public void close() {}
  }
}
