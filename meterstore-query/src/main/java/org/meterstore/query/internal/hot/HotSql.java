package org.meterstore.query.internal.hot;

import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWindow;
import org.apache.calcite.sql.dialect.PostgresqlSqlDialect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.meterstore.api.table.ColumnType;
import org.meterstore.api.table.ResolutionKey;
import org.meterstore.api.table.SqlIdentifiers;
import org.meterstore.api.table.VersionOrder;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.query.internal.exec.ScanSpec;
import org.meterstore.query.internal.predicate.Pred;

/**
 * The SQL a hot scan sends to PostgreSQL: the enumerated partitions by name ({@code UNION ALL}),
 * the pushed predicates as bound parameters, and, for resolved relations, version resolution with
 * {@code ROW_NUMBER()} so that only current versions leave the database.
 *
 * <p>The statement is a Calcite parse tree rendered by Calcite's {@link PostgresqlSqlDialect} (ADR
 * 0024), one line, every identifier quoted by the dialect after {@link SqlIdentifiers#checked}
 * validated it; values are always bound ({@code ?}, a {@link SqlDynamicParam}), never inlined. It
 * is built per execution (the partitions depend on W) from the plan's cached {@link ScanSpec}.
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
  static final String RANK = "_meterstore_rank";

  static final SqlParserPos POS = SqlParserPos.ZERO;

  /** A placeholder's value and the column type it is compared with. */
  public record Binding(Pred.Operand operand, ColumnType type) {}

  /** The SQL for {@code spec} over {@code partitions} (non-empty) in {@code schema}. */
  public static HotSql of(
      ScanSpec spec, List<PartitionInfo> partitions, String schema, Instant boundary) {
    return of(spec, partitions, schema, boundary, null);
  }

  /**
   * The SQL for {@code spec} over {@code partitions} with {@code aggregate} computed in PostgreSQL
   * over the scan's rows; without an aggregate (null) the scan's rows themselves. With an aggregate
   * the scan reads only the aggregate's input columns; {@link #columns()} names those.
   */
  public static HotSql of(
      ScanSpec spec,
      List<PartitionInfo> partitions,
      String schema,
      Instant boundary,
      HotAggregate aggregate) {
    ScanSpec scan =
        aggregate == null ? spec : spec.withProjects(aggregate.inputs().stream().toArray());
    Builder builder = new Builder(scan, schema);
    SqlNode statement = builder.build(partitions, boundary);
    if (aggregate != null) {
      statement = aggregate.wrap(statement, spec);
    }
    return new HotSql(render(statement), List.copyOf(builder.bindings), scan.projects());
  }

  /** {@code node} as PostgreSQL text, on one line (it is shown in plans). */
  static String render(SqlNode node) {
    return node.toSqlString(
            c ->
                c.withDialect(PostgresqlSqlDialect.DEFAULT)
                    .withClauseStartsLine(false)
                    .withClauseEndsLine(false)
                    .withAlwaysUseParentheses(false)
                    .withSelectListItemsOnSeparateLines(false)
                    .withUpdateSetListNewline(false)
                    .withIndentation(0))
        .getSql();
  }

  /** The column {@code name}, validated; the dialect quotes it. */
  static SqlIdentifier column(String name) {
    return new SqlIdentifier(SqlIdentifiers.checked(name), POS);
  }

  /** {@code SELECT columns FROM from [WHERE where] [GROUP BY groupBy]}. */
  static SqlSelect select(SqlNodeList columns, SqlNode from, SqlNode where, SqlNodeList groupBy) {
    return new SqlSelect(
        POS, null, columns, from, where, groupBy, null, null, null, null, null, null, null);
  }

  /** {@code node AS alias}. */
  static SqlNode as(SqlNode node, String alias) {
    return SqlStdOperatorTable.AS.createCall(POS, node, new SqlIdentifier(alias, POS));
  }

  private static final class Builder {
    private final ScanSpec spec;
    private final String schema;
    private final List<Binding> bindings = new ArrayList<>();

    Builder(ScanSpec spec, String schema) {
      this.spec = spec;
      this.schema = schema;
    }

    SqlNode build(List<PartitionInfo> partitions, Instant boundary) {
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
      SqlNode inner = as(union(partitions, needed, below), "h");
      if (!spec.resolve()) {
        return select(columnList(spec.projects()), inner, null, null);
      }
      List<SqlNode> ranked = new ArrayList<>(columnList(needed.stream().toArray()).getList());
      ranked.add(as(rank(), RANK));
      SqlNode resolved = select(new SqlNodeList(ranked, POS), inner, null, null);
      List<SqlNode> where = new ArrayList<>();
      where.add(
          SqlStdOperatorTable.EQUALS.createCall(
              POS, new SqlIdentifier(RANK, POS), SqlLiteral.createExactNumeric("1", POS)));
      above.forEach(p -> where.add(render(p)));
      return select(
          columnList(spec.projects()),
          as(resolved, "r"),
          and(where, SqlStdOperatorTable.AND),
          null);
    }

    /** {@code ROW_NUMBER() OVER (PARTITION BY <group> ORDER BY version DESC, recorded_at DESC)}. */
    private SqlNode rank() {
      List<SqlNode> key = new ArrayList<>();
      ResolutionKey.of(spec.def()).columns().forEach(c -> key.add(column(c)));
      SqlNodeList group = new SqlNodeList(key, POS);
      List<SqlNode> order = new ArrayList<>();
      VersionOrder.descendingColumns()
          .forEach(c -> order.add(SqlStdOperatorTable.DESC.createCall(POS, column(c))));
      SqlWindow window =
          SqlWindow.create(
              null,
              null,
              group,
              new SqlNodeList(order, POS),
              SqlLiteral.createBoolean(false, POS),
              null,
              null,
              null,
              POS);
      return SqlStdOperatorTable.OVER.createCall(
          POS, SqlStdOperatorTable.ROW_NUMBER.createCall(POS), window);
    }

    /**
     * One branch per partition, each with its own placeholders ({@link #bindings} follow the text).
     */
    private SqlNode union(List<PartitionInfo> partitions, BitSet columns, List<Pred> where) {
      SqlNode union = null;
      for (PartitionInfo p : partitions) {
        SqlNode table =
            new SqlIdentifier(
                List.of(SqlIdentifiers.checked(schema), SqlIdentifiers.checked(p.name())), POS);
        List<SqlNode> conditions = new ArrayList<>();
        where.forEach(w -> conditions.add(render(w)));
        SqlNode branch =
            select(
                columnList(columns.stream().toArray()),
                table,
                conditions.isEmpty() ? null : and(conditions, SqlStdOperatorTable.AND),
                null);
        union =
            union == null ? branch : SqlStdOperatorTable.UNION_ALL.createCall(POS, union, branch);
      }
      return union;
    }

    private SqlNode render(Pred p) {
      if (p instanceof Pred.Cmp c) {
        bindings.add(new Binding(c.value(), spec.type(c.column())));
        SqlNode param = new SqlDynamicParam(bindings.size() - 1, POS);
        return operator(c.op()).createCall(POS, column(spec.name(c.column())), param);
      }
      if (p instanceof Pred.IsNull n) {
        SqlOperator test =
            n.negated() ? SqlStdOperatorTable.IS_NOT_NULL : SqlStdOperatorTable.IS_NULL;
        return test.createCall(POS, column(spec.name(n.column())));
      }
      if (p instanceof Pred.And a) {
        return a.parts().isEmpty()
            ? SqlLiteral.createBoolean(true, POS)
            : and(parts(a.parts()), SqlStdOperatorTable.AND);
      }
      if (p instanceof Pred.Or o) {
        return o.parts().isEmpty()
            ? SqlLiteral.createBoolean(false, POS)
            : and(parts(o.parts()), SqlStdOperatorTable.OR);
      }
      return SqlStdOperatorTable.NOT.createCall(POS, render(((Pred.Not) p).part()));
    }

    private List<SqlNode> parts(List<Pred> parts) {
      List<SqlNode> out = new ArrayList<>();
      parts.forEach(x -> out.add(render(x)));
      return out;
    }

    private static SqlOperator operator(Pred.Op op) {
      return switch (op) {
        case EQ -> SqlStdOperatorTable.EQUALS;
        case NE -> SqlStdOperatorTable.NOT_EQUALS;
        case LT -> SqlStdOperatorTable.LESS_THAN;
        case LE -> SqlStdOperatorTable.LESS_THAN_OR_EQUAL;
        case GT -> SqlStdOperatorTable.GREATER_THAN;
        case GE -> SqlStdOperatorTable.GREATER_THAN_OR_EQUAL;
      };
    }

    /** The columns by name, in the order given; {@code 1} for none. */
    private SqlNodeList columnList(int[] columns) {
      List<SqlNode> names = new ArrayList<>();
      for (int c : columns) {
        names.add(column(spec.name(c)));
      }
      if (names.isEmpty()) {
        names.add(SqlLiteral.createExactNumeric("1", POS));
      }
      return new SqlNodeList(names, POS);
    }
  }

  /** The longest chain of one operator rendered flat; longer lists are split in halves. */
  private static final int CHAIN = 64;

  /**
   * {@code nodes} joined by {@code op} (AND or OR) as binary calls: Calcite renders only the first
   * two operands of a binary operator's call, so a flat call of three would lose the third. Up to
   * {@value #CHAIN} operands chain left to right (flat text, no parentheses); a longer list (an
   * {@code IN} of thousands of locations) is split in halves, whose parenthesized groups keep the
   * meaning and keep Calcite's recursive rendering shallow.
   */
  static SqlNode and(List<SqlNode> nodes, SqlOperator op) {
    if (nodes.size() > CHAIN) {
      int half = nodes.size() / 2;
      return op.createCall(
          POS, and(nodes.subList(0, half), op), and(nodes.subList(half, nodes.size()), op));
    }
    SqlNode out = nodes.get(0);
    for (int i = 1; i < nodes.size(); i++) {
      out = op.createCall(POS, out, nodes.get(i));
    }
    return out;
  }
}
