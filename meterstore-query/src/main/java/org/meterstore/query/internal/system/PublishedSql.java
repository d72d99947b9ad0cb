package org.meterstore.query.internal.system;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.UnaryOperator;
import org.meterstore.api.table.ColumnSpec;
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
 * ranks within the merge key and {@code version_scope} by {@code version DESC, recorded_at DESC}
 * and keeps rank 1 — what MeterStore's own current relation returns. Identifiers are validated
 * names (table, schema, namespace and columns) and quoted; the only literals are a snapshot id (a
 * number) and an instant MeterStore formats itself.
 */
public final class PublishedSql {
  /** The alias of the rank column; no declared column can have it. */
  static final String RANK = "_meterstore_rank";

  /** The catalog name the federated SQL gives the Iceberg catalog (MeterStore's own). */
  public static final String ICEBERG_CATALOG = "meterstore";

  /** The catalog name the federated SQL gives the PostgreSQL catalog of the hot tier. */
  public static final String HOT_CATALOG = "hot";

  private static final DateTimeFormatter SPARK_TS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter TRINO_TS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS 'UTC'").withZone(ZoneOffset.UTC);

  /** An engine's quoting and snapshot syntax. */
  public enum Dialect {
    /** SQL-standard double quotes: Trino, DuckDB, PostgreSQL. */
    STANDARD(PublishedSql::doubleQuote, "FOR VERSION AS OF ", TRINO_TS),
    /** Spark SQL: backticks, {@code VERSION AS OF}. */
    SPARK(PublishedSql::backtick, "VERSION AS OF ", SPARK_TS);

    private final UnaryOperator<String> quote;
    private final String versionAsOf;
    private final DateTimeFormatter timestamps;

    Dialect(UnaryOperator<String> quote, String versionAsOf, DateTimeFormatter timestamps) {
      this.quote = quote;
      this.versionAsOf = versionAsOf;
      this.timestamps = timestamps;
    }

    String quote(String name) {
      return quote.apply(name);
    }

    String timestamp(Instant instant) {
      return "TIMESTAMP '" + timestamps.format(instant) + "'";
    }
  }

  private PublishedSql() {}

  /**
   * The version resolution over the Iceberg table {@code coldTable} alone (its cold part: the
   * readings below W of whatever snapshot the engine reads).
   *
   * @param coldTable the table as the engine names it, already quoted (for example {@code
   *     "meterstore"."lastgang"})
   */
  public static String resolution(TableDefinition def, Dialect d, String coldTable) {
    return resolved(def, d, coldTable + " t");
  }

  /**
   * The federated query: cold at {@code snapshotId} for {@code from < w}, hot for {@code from >=
   * w}, versions resolved. Without a snapshot (nothing archived yet) only the hot branch remains.
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
      Instant w) {
    String from = d.quote(StandardColumn.FROM.columnName());
    String columns = columnList(def, d);
    String hot =
        "SELECT "
            + columns
            + " FROM "
            + d.quote(HOT_CATALOG)
            + "."
            + d.quote(hotSchema)
            + "."
            + d.quote(def.name())
            + " WHERE "
            + from
            + " >= "
            + d.timestamp(w);
    String union = hot;
    if (snapshotId.isPresent()) {
      String cold =
          "SELECT "
              + columns
              + " FROM "
              + d.quote(ICEBERG_CATALOG)
              + "."
              + d.quote(namespace)
              + "."
              + d.quote(def.name())
              + " "
              + d.versionAsOf
              + snapshotId.getAsLong()
              + " WHERE "
              + from
              + " < "
              + d.timestamp(w);
      union = cold + "\n    UNION ALL\n    " + hot;
    }
    return resolved(def, d, "(\n    " + union + "\n  ) t");
  }

  private static String resolved(TableDefinition def, Dialect d, String source) {
    List<String> group = new ArrayList<>();
    def.mergeKey().forEach(c -> group.add(d.quote(c)));
    group.add(d.quote(StandardColumn.VERSION_SCOPE.columnName()));
    return "SELECT "
        + columnList(def, d)
        + " FROM (\n  SELECT t.*, ROW_NUMBER() OVER (PARTITION BY "
        + String.join(", ", group)
        + " ORDER BY "
        + VersionOrder.sqlOrderBy(d::quote)
        + ") AS "
        + d.quote(RANK)
        + "\n  FROM "
        + source
        + "\n) r WHERE "
        + d.quote(RANK)
        + " = 1";
  }

  private static String columnList(TableDefinition def, Dialect d) {
    List<String> names = new ArrayList<>();
    for (ColumnSpec c : def.columns()) {
      names.add(d.quote(c.name()));
    }
    return String.join(", ", names);
  }

  private static String doubleQuote(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }

  private static String backtick(String name) {
    return "`" + name.replace("`", "``") + "`";
  }
}
