package org.meterstore.query.internal.system;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWindow;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.dialect.SparkSqlDialect;
import org.apache.calcite.sql.dialect.TrinoSqlDialect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.ResolutionKey;
import org.meterstore.api.table.StandardColumn;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.api.table.VersionOrder;

/**
 * The SQL MeterStore publishes for other engines (docs/interop.md): the version resolution over the
 * Iceberg table alone ({@code system.resolution}) and the federated query over both tiers at one
 * snapshot and its watermark ({@code system.seam}), in the dialects of Spark and Trino.
 *
 * <p>Every query selects the table's columns by name (the rank column never leaks, and cannot
 * collide with a declared column: column names start with a letter, the rank's with {@code _}),
 * ranks within the {@linkplain ResolutionKey resolution group} (merge key and {@code
 * version_scope}) by {@code version DESC, recorded_at DESC} and keeps rank 1 — what MeterStore's
 * own current relation returns.
 *
 * <p>The statements are Calcite parse trees ({@link SqlNode}) rendered by Calcite's {@link
 * SparkSqlDialect} and {@link TrinoSqlDialect} (ADR 0024): each dialect quotes and escapes
 * identifiers as its engine reads them. Two constructs Calcite has no node for are small operators
 * here that only place keywords around nodes: the snapshot clause ({@code VERSION AS OF} / {@code
 * FOR VERSION AS OF}) and the zoned timestamp literal. The only literals are a snapshot id (a
 * number) and an instant MeterStore formats itself.
 */
public final class PublishedSql {
  /** The alias of the rank column; no declared column can have it. */
  static final String RANK = "_meterstore_rank";

  /** The catalog name the federated SQL gives the Iceberg catalog (MeterStore's own). */
  public static final String ICEBERG_CATALOG = "meterstore";

  /** The catalog name the federated SQL gives the PostgreSQL catalog of the hot tier. */
  public static final String HOT_CATALOG = "hot";

  private static final SqlParserPos POS = SqlParserPos.ZERO;

  private static final DateTimeFormatter SPARK_TS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter TRINO_TS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS 'UTC'").withZone(ZoneOffset.UTC);

  /** An engine: Calcite's dialect for it, its snapshot clause and its zoned timestamp literal. */
  public enum Dialect {
    /** SQL-standard double quotes (Trino, also read by DuckDB), {@code FOR VERSION AS OF}. */
    STANDARD(TrinoSqlDialect.DEFAULT, "FOR VERSION AS OF", TRINO_TS),
    /** Spark SQL: backticks, {@code VERSION AS OF}. */
    SPARK(SparkSqlDialect.DEFAULT, "VERSION AS OF", SPARK_TS);

    private final SqlDialect calcite;
    private final SqlSpecialOperator versionAsOf;
    private final DateTimeFormatter timestamps;

    Dialect(SqlDialect calcite, String versionAsOf, DateTimeFormatter timestamps) {
      this.calcite = calcite;
      this.versionAsOf = new Keywords(versionAsOf);
      this.timestamps = timestamps;
    }

    /** {@code name} as this engine reads an identifier, quoted and escaped by Calcite's dialect. */
    String quote(String name) {
      return calcite.quoteIdentifier(name);
    }

    /** {@code node} as this engine's SQL text. */
    String render(SqlNode node) {
      return node.toSqlString(
              c ->
                  c.withDialect(calcite)
                      .withAlwaysUseParentheses(false)
                      .withSelectListItemsOnSeparateLines(false)
                      .withUpdateSetListNewline(false)
                      .withIndentation(2))
          .getSql();
    }

    /** {@code TIMESTAMP '…'}: the instant in UTC, with the zone this engine's literal names. */
    SqlNode timestamp(Instant instant) {
      return TIMESTAMP.createCall(
          POS, SqlLiteral.createCharString(timestamps.format(instant), POS));
    }

    /** {@code table} read at snapshot {@code snapshotId}. */
    SqlNode atSnapshot(SqlNode table, long snapshotId) {
      return versionAsOf.createCall(
          POS, table, SqlLiteral.createExactNumeric(Long.toString(snapshotId), POS));
    }
  }

  /**
   * A construct Calcite has no node for: {@code [operand0] KEYWORDS operand1}, the keywords written
   * as given and the operands rendered (and quoted) by the dialect. Binds tightest, so Calcite
   * never wraps it in parentheses.
   */
  private static final class Keywords extends SqlSpecialOperator {
    Keywords(String keywords) {
      super(keywords, SqlKind.OTHER, 100);
    }

    @Override
    public void unparse(SqlWriter writer, SqlCall call, int leftPrec, int rightPrec) {
      List<SqlNode> operands = call.getOperandList();
      if (operands.size() == 2) {
        operands.get(0).unparse(writer, 0, 0);
      }
      writer.keyword(getName());
      operands.get(operands.size() - 1).unparse(writer, 0, 0);
    }
  }

  /** {@code TIMESTAMP '…'} with the text exactly as MeterStore formats it. */
  private static final SqlSpecialOperator TIMESTAMP = new Keywords("TIMESTAMP");

  private PublishedSql() {}

  /**
   * The version resolution over the Iceberg table {@code coldTable} alone (its cold part: the
   * readings below W of whatever snapshot the engine reads).
   *
   * @param coldTable the table as the engine names it, one name per part (for example {@code
   *     meterstore, meterstore, lastgang}); the dialect quotes each
   */
  public static String resolution(TableDefinition def, Dialect d, List<String> coldTable) {
    return d.render(resolved(def, d, identifier(coldTable)));
  }

  /**
   * A partition of the hot table read by its own name in the federated query: its rows stay in the
   * query while it is detached or pending detach (which hides it from the parent).
   *
   * @param name the partition's table name in the hot schema
   * @param lower the first {@code from} it holds, inclusive
   * @param upper the first {@code from} it no longer holds, exclusive
   */
  public record HotPartition(String name, Instant lower, Instant upper) {}

  /**
   * The federated query: cold at {@code snapshotId} for {@code from < w}, hot for {@code from >=
   * w}, versions resolved; without a snapshot (nothing archived yet) only the hot rows. The hot
   * rows are read from {@code partitions} by name and from the parent only outside their ranges
   * (partitions created later): a detach of a named partition (pending or done) does not change the
   * answer, only dropping it would. With no partitions (the seam's query), from the parent alone.
   *
   * @param namespace the Iceberg namespace of the table (in catalog {@value #ICEBERG_CATALOG})
   * @param hotSchema the PostgreSQL schema of the hot table (in catalog {@value #HOT_CATALOG})
   */
  public static String federated(
      TableDefinition def,
      Dialect d,
      String namespace,
      String hotSchema,
      OptionalLong snapshotId,
      Instant w,
      List<HotPartition> partitions) {
    SqlNode from = identifier(List.of(StandardColumn.FROM.columnName()));
    SqlNode fromW = SqlStdOperatorTable.GREATER_THAN_OR_EQUAL.createCall(POS, from, d.timestamp(w));
    SqlNode parentFilter = fromW;
    List<HotPartition> sorted = new ArrayList<>(partitions);
    sorted.sort(java.util.Comparator.comparing(HotPartition::lower));
    for (Instant[] run : runs(sorted)) {
      SqlNode inRun =
          SqlStdOperatorTable.AND.createCall(
              POS,
              SqlStdOperatorTable.GREATER_THAN_OR_EQUAL.createCall(POS, from, d.timestamp(run[0])),
              SqlStdOperatorTable.LESS_THAN.createCall(POS, from, d.timestamp(run[1])));
      parentFilter =
          SqlStdOperatorTable.AND.createCall(
              POS, parentFilter, SqlStdOperatorTable.NOT.createCall(POS, inRun));
    }
    List<SqlNode> branches = new ArrayList<>();
    if (snapshotId.isPresent()) {
      branches.add(
          select(
              columnList(def),
              d.atSnapshot(
                  identifier(List.of(ICEBERG_CATALOG, namespace, def.name())),
                  snapshotId.getAsLong()),
              SqlStdOperatorTable.LESS_THAN.createCall(POS, from, d.timestamp(w))));
    }
    for (HotPartition p : sorted) {
      branches.add(
          select(columnList(def), identifier(List.of(HOT_CATALOG, hotSchema, p.name())), fromW));
    }
    branches.add(
        select(
            columnList(def),
            identifier(List.of(HOT_CATALOG, hotSchema, def.name())),
            parentFilter));
    SqlNode union = branches.get(0);
    for (SqlNode next : branches.subList(1, branches.size())) {
      union = SqlStdOperatorTable.UNION_ALL.createCall(POS, union, next);
    }
    return d.render(resolved(def, d, union));
  }

  /** The contiguous ranges {@code [lower, upper)} that {@code sorted} partitions cover. */
  private static List<Instant[]> runs(List<HotPartition> sorted) {
    List<Instant[]> runs = new ArrayList<>();
    for (HotPartition p : sorted) {
      Instant[] last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
      if (last != null && !p.lower().isAfter(last[1])) {
        if (p.upper().isAfter(last[1])) {
          last[1] = p.upper();
        }
      } else {
        runs.add(new Instant[] {p.lower(), p.upper()});
      }
    }
    return runs;
  }

  /**
   * {@code SELECT <columns> FROM (SELECT t.*, ROW_NUMBER() OVER (PARTITION BY <group> ORDER BY
   * version DESC, recorded_at DESC) AS _meterstore_rank FROM <source> AS t) AS r WHERE
   * _meterstore_rank = 1}.
   */
  private static SqlNode resolved(TableDefinition def, Dialect d, SqlNode source) {
    SqlNodeList group = names(ResolutionKey.of(def).columns());
    List<SqlNode> descending = new ArrayList<>();
    VersionOrder.descendingColumns().forEach(c -> descending.add(desc(c)));
    SqlNodeList order = new SqlNodeList(descending, POS);
    SqlNode rank =
        SqlStdOperatorTable.OVER.createCall(
            POS,
            SqlStdOperatorTable.ROW_NUMBER.createCall(POS),
            SqlWindow.create(
                null,
                null,
                group,
                order,
                SqlLiteral.createBoolean(false, POS),
                null,
                null,
                null,
                POS));
    SqlNode ranked =
        select(
            new SqlNodeList(
                List.of(
                    SqlIdentifier.star(List.of("t", ""), POS, Collections.nCopies(2, POS)),
                    as(rank, RANK)),
                POS),
            as(source, "t"),
            null);
    SqlNode kept =
        SqlStdOperatorTable.EQUALS.createCall(
            POS, identifier(List.of(RANK)), SqlLiteral.createExactNumeric("1", POS));
    return select(columnList(def), as(ranked, "r"), kept);
  }

  private static SqlSelect select(SqlNodeList columns, SqlNode from, SqlNode where) {
    return new SqlSelect(
        POS, null, columns, from, where, null, null, null, null, null, null, null, null);
  }

  private static SqlNode as(SqlNode node, String alias) {
    return SqlStdOperatorTable.AS.createCall(POS, node, identifier(List.of(alias)));
  }

  private static SqlBasicCall desc(String column) {
    return (SqlBasicCall) SqlStdOperatorTable.DESC.createCall(POS, identifier(List.of(column)));
  }

  private static SqlIdentifier identifier(List<String> names) {
    return new SqlIdentifier(names, POS);
  }

  private static SqlNodeList columnList(TableDefinition def) {
    List<String> names = new ArrayList<>();
    for (ColumnSpec c : def.columns()) {
      names.add(c.name());
    }
    return names(names);
  }

  private static SqlNodeList names(List<String> names) {
    List<SqlNode> out = new ArrayList<>();
    names.forEach(n -> out.add(identifier(List.of(n))));
    return new SqlNodeList(out, POS);
  }
}
