package org.meterstore.query.internal.exec;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.iceberg.expressions.Expression;
import org.meterstore.query.internal.cold.ColdExecutor;
import org.meterstore.query.internal.cold.ColdPred;
import org.meterstore.query.internal.cold.ColdRequest;
import org.meterstore.query.internal.cold.ColdRows;

/**
 * Reads one cold scan from the snapshot the statement pinned through the {@link ColdExecutor}: the
 * pushed predicates become an Iceberg filter (partition pruning, file and row-group statistics),
 * only the needed columns are read in column batches, and versions are resolved per month unless
 * file statistics prove it unnecessary, file by file. The predicates that must hold exactly (the
 * read mode's, the boundary) are checked on every row. {@link MergeElision} still decides, for
 * plans and the elision metric, whether the scan as a whole needs no resolution.
 */
public final class ColdSource implements ScanSource {
  private final CatalogRuntime runtime;
  private final ScanSpec spec;
  private final MergeElision.Decision elision;
  private final ColdExecutor executor;

  /**
   * The cold scan of {@code spec}; decides merge elision from the pinned snapshot's files. Each
   * opened scan reads on a pool of its own (available processors), closed with the scan.
   */
  public ColdSource(CatalogRuntime runtime, ScanSpec spec) {
    this(runtime, spec, null);
  }

  /**
   * The cold scan of {@code spec} read on {@code executor} (owned by the caller, which closes it),
   * or on a pool of its own when null.
   */
  public ColdSource(CatalogRuntime runtime, ScanSpec spec, ColdExecutor executor) {
    this.runtime = runtime;
    this.spec = spec;
    this.executor = executor;
    TableState state = spec.state();
    if (!spec.resolve()) {
      elision = new MergeElision.Decision(true, "versions relation");
    } else if (state.coldSnapshot() == null || state.snapshotId() == null) {
      elision = new MergeElision.Decision(false, "no snapshot");
    } else {
      Expression planFilter = new IcebergFilters(spec, null).and(exact(spec.below()));
      elision = MergeElision.decide(state.coldSnapshot(), planFilter);
    }
  }

  /** Whether this scan skips version resolution, for plans. */
  public boolean elided() {
    return spec.resolve() && elision.elided();
  }

  /** Why, for plans. */
  public String elisionReason() {
    return elision.reason();
  }

  /** The Iceberg filter as planned (parameters not yet bound), for plans. */
  public String plannedFilter() {
    return new IcebergFilters(spec, null).and(pushed()).toString();
  }

  /** The predicates that act before resolution, plus the boundary and the read mode's. */
  private List<Pred> exact(List<Pred> preds) {
    List<Pred> out = new ArrayList<>(preds);
    out.addAll(spec.modePreds());
    Instant boundary = spec.state().boundary();
    if (!boundary.equals(Instant.MAX)) {
      out.add(
          new Pred.Cmp(spec.fromColumn(), Pred.Op.LT, new Pred.Literal(boundary.toEpochMilli())));
    }
    return out;
  }

  /** What the Iceberg scan filters on: everything when no resolution happens in between. */
  private List<Pred> pushed() {
    return exact(elided() || !spec.resolve() ? spec.preds() : spec.below());
  }

  @Override
  public Enumerable<Object[]> scan(DataContext root) {
    TableState state = spec.state();
    FromRange range = FromRanges.of(spec.preds(), spec.fromColumn(), root);
    if (!state.needsCold(range)) {
      return RowEnumerable.empty();
    }
    state.requireColdReadable();
    if (state.snapshotId() == null) {
      return RowEnumerable.empty();
    }
    if (spec.resolve()) {
      runtime.metrics().elisionDecided(state.def().name(), elision.elided());
    }
    return new RowEnumerable(runtime.metrics(), state.def().name(), "cold", () -> open(root));
  }

  /**
   * The executor's request for this scan with {@code root}'s parameter values: the planning filter
   * (everything when no resolution happens in between), the exact predicates before and after
   * resolution, and the columns the plan returns.
   */
  public ColdRequest request(DataContext root) {
    List<Pred> after = spec.resolve() ? spec.above() : List.of();
    return new ColdRequest(
        spec.def(),
        spec.state().coldSnapshot(),
        new IcebergFilters(spec, root).and(pushed()),
        bind(exact(spec.below()), root),
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

  private RowEnumerable.Cursor open(DataContext root) {
    ColdRequest request = request(root);
    ColdExecutor owned =
        executor != null
            ? null
            : new ColdExecutor(
                Runtime.getRuntime().availableProcessors(), runtime.metrics()::coldRowsRead);
    try {
      ColdRows rows = (executor != null ? executor : owned).rows(request);
      return new Cursor(rows, owned, spec.projects());
    } catch (RuntimeException e) {
      if (owned != null) {
        owned.close();
      }
      throw e;
    }
  }

  /** Projects full-width rows to the output columns; closing stops the executor's workers. */
  private static final class Cursor implements RowEnumerable.Cursor {
    private final ColdRows rows;
    private final ColdExecutor owned;
    private final int[] projects;

    Cursor(ColdRows rows, ColdExecutor owned, int[] projects) {
      this.rows = rows;
      this.owned = owned;
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
        rows.close();
      } finally {
        if (owned != null) {
          owned.close();
        }
      }
    }
  }
}
