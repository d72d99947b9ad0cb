package org.meterstore.query.internal.hot;

import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.stream.Collectors;
import org.meterstore.api.table.ColumnType;
import org.meterstore.api.table.SqlIdentifiers;
import org.meterstore.api.table.VersionOrder;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.query.internal.exec.ScanSpec;
import org.meterstore.query.internal.predicate.Pred;

/**
 * The SQL a hot scan sends to PostgreSQL: the enumerated partitions by name ({@code UNION ALL}),
 * the pushed predicates as bound parameters, and, for resolved relations, version resolution with
 * {@code row_number()} so that only current versions leave the database. Identifiers are quoted;
 * values are always bound.
 *
 * @param sql the statement text with {@code ?} placeholders
 * @param bindings one per placeholder, in order
 * @param columns the storage-order indexes of the selected columns, in select order
 */
public record HotSql(String sql, List<Binding> bindings, int[] columns) {
  /**
   * The rank column of version resolution. MeterStore's own names start with {@code _}, which no
   * declared column name can ({@code [a-z][a-z0-9_]*}): an extra column named {@code meterstore_rn}
   * (the old alias) made every query of its table ambiguous.
   */
  static final String RANK = "\"_meterstore_rank\"";

  /** A placeholder's value and the column type it is compared with. */
  public record Binding(Pred.Operand operand, ColumnType type) {}

  /** The SQL for {@code spec} over {@code partitions} (non-empty) in {@code schema}. */
  public static HotSql of(
      ScanSpec spec, List<PartitionInfo> partitions, String schema, Instant boundary) {
    return new Builder(spec, schema).build(partitions, boundary);
  }

  /**
   * The SQL for {@code spec} over {@code partitions} with {@code aggregate} computed in PostgreSQL
   * over the scan's rows; without an aggregate, {@link #of(ScanSpec, List, String, Instant)}. The
   * scan then reads only the aggregate's input columns; {@link #columns()} names those.
   */
  public static HotSql of(
      ScanSpec spec,
      List<PartitionInfo> partitions,
      String schema,
      Instant boundary,
      HotAggregate aggregate) {
    if (aggregate == null) {
      return of(spec, partitions, schema, boundary);
    }
    ScanSpec inputs = spec.withProjects(aggregate.inputs().stream().toArray());
    HotSql inner = of(inputs, partitions, schema, boundary);
    return new HotSql(aggregate.wrap(inner.sql(), spec), inner.bindings(), inner.columns());
  }

  private static final class Builder {
    private final ScanSpec spec;
    private final String schema;
    private final List<Binding> bindings = new ArrayList<>();

    Builder(ScanSpec spec, String schema) {
      this.spec = spec;
      this.schema = schema;
    }

    HotSql build(List<PartitionInfo> partitions, Instant boundary) {
      List<Pred> below = new ArrayList<>(spec.below());
      below.addAll(spec.modePreds());
      if (!boundary.equals(Instant.MIN)) {
        below.add(
            new Pred.Cmp(spec.fromColumn(), Pred.Op.GE, new Pred.Literal(boundary.toEpochMilli())));
      }
      BitSet needed = new BitSet();
      for (int p : spec.projects()) {
        needed.set(p);
      }
      List<Pred> above = spec.above();
      if (spec.resolve()) {
        needed.or(spec.resolutionColumns());
        above.forEach(p -> needed.or(p.columns()));
      }
      if (needed.isEmpty()) {
        needed.set(spec.fromColumn());
      }
      String inner = union(partitions, columnList(needed), below);
      String sql;
      if (!spec.resolve()) {
        sql = "SELECT " + columnList(spec.projects()) + " FROM (" + inner + ") AS h";
      } else {
        sql =
            "SELECT "
                + columnList(spec.projects())
                + " FROM (SELECT "
                + columnList(needed)
                + ", row_number() OVER (PARTITION BY "
                + columnList(spec.groupColumns())
                + " ORDER BY "
                + VersionOrder.sqlOrderBy()
                + ") AS "
                + RANK
                + " FROM ("
                + inner
                + ") AS h) AS r WHERE "
                + RANK
                + " = 1"
                + (above.isEmpty() ? "" : " AND " + and(above));
      }
      return new HotSql(sql, List.copyOf(bindings), spec.projects());
    }

    private String union(List<PartitionInfo> partitions, String columns, List<Pred> where) {
      List<String> branches = new ArrayList<>();
      for (PartitionInfo p : partitions) {
        String branch =
            "SELECT "
                + columns
                + " FROM "
                + SqlIdentifiers.quote(schema)
                + "."
                + SqlIdentifiers.quote(p.name());
        if (!where.isEmpty()) {
          branch += " WHERE " + and(where);
        }
        branches.add(branch);
      }
      return String.join(" UNION ALL ", branches);
    }

    private String and(List<Pred> preds) {
      return preds.stream().map(this::render).collect(Collectors.joining(" AND "));
    }

    private String render(Pred p) {
      if (p instanceof Pred.Cmp c) {
        bindings.add(new Binding(c.value(), spec.type(c.column())));
        return SqlIdentifiers.quote(spec.name(c.column())) + " " + c.op().sql + " ?";
      }
      if (p instanceof Pred.IsNull n) {
        return SqlIdentifiers.quote(spec.name(n.column()))
            + (n.negated() ? " IS NOT NULL" : " IS NULL");
      }
      if (p instanceof Pred.And a) {
        return a.parts().isEmpty() ? "TRUE" : "(" + join(a.parts(), " AND ") + ")";
      }
      if (p instanceof Pred.Or o) {
        return o.parts().isEmpty() ? "FALSE" : "(" + join(o.parts(), " OR ") + ")";
      }
      return "NOT (" + render(((Pred.Not) p).part()) + ")";
    }

    private String join(List<Pred> parts, String op) {
      List<String> out = new ArrayList<>();
      parts.forEach(x -> out.add(render(x)));
      return String.join(op, out);
    }

    private String columnList(BitSet columns) {
      return columnList(columns.stream().toArray());
    }

    private String columnList(int[] columns) {
      List<String> names = new ArrayList<>();
      for (int c : columns) {
        names.add(SqlIdentifiers.quote(spec.name(c)));
      }
      return names.isEmpty() ? "1" : String.join(", ", names);
    }
  }
}
