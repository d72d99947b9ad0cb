package org.meterstore.hot.internal.schema;

import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record2;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.meterstore.api.table.TableDefinition;

/**
 * The {@code <schema>.tables} registry: one row per declared table with its time model, archival
 * step, creation instant and the longest span that crosses a partition bound. Statements are built
 * with jOOQ (no code generation: the registry is three columns and a key), executed on the caller's
 * connection and transaction.
 */
public final class TableRegistry {
  private static final Field<String> NAME = DSL.field(DSL.name("name"), SQLDataType.CLOB);
  private static final Field<String> TIME_MODEL =
      DSL.field(DSL.name("time_model"), SQLDataType.CLOB);
  private static final Field<Object> ARCHIVAL_STEP =
      DSL.field(DSL.name("archival_step"), SQLDataType.OTHER);
  private static final Field<OffsetDateTime> CREATED_AT =
      DSL.field(DSL.name("created_at"), SQLDataType.TIMESTAMPWITHTIMEZONE);
  private static final Field<Object> CROSSING_SPAN =
      DSL.field(DSL.name("longest_crossing_span"), SQLDataType.OTHER);

  /**
   * What the registry holds for one table.
   *
   * @param timeModel {@code INTERVAL} or {@code POINT}
   * @param archivalStep the partition width the table was created with
   */
  public record Entry(String timeModel, Duration archivalStep) {}

  private final DSLContext dsl;
  private final Table<?> tables;

  /** The registry of {@code schema}, read and written through {@code c}. */
  public TableRegistry(Connection c, String schema) {
    this.dsl = DSL.using(c, SQLDialect.POSTGRES);
    this.tables = DSL.table(DSL.name(schema, "tables"));
  }

  /** The entry of {@code table}, if it was created. */
  public Optional<Entry> find(String table) {
    Record2<String, Long> row =
        dsl.select(TIME_MODEL, seconds(ARCHIVAL_STEP))
            .from(tables)
            .where(NAME.eq(table))
            .fetchOne();
    return row == null
        ? Optional.empty()
        : Optional.of(new Entry(row.value1(), Duration.ofSeconds(row.value2())));
  }

  /** Records {@code table} as created at {@code now}. */
  public void insert(TableDefinition table, Instant now) {
    dsl.insertInto(tables)
        .columns(NAME, TIME_MODEL, ARCHIVAL_STEP, CREATED_AT)
        .values(
            DSL.val(table.name()),
            DSL.val(table.timeModel().name()),
            interval(table.policy().archivalStep()),
            DSL.val(now.atOffset(ZoneOffset.UTC)))
        .execute();
  }

  /**
   * The longest span of a stored reading of {@code table} that crosses its partition's upper bound,
   * or empty while there is none.
   */
  public Optional<Duration> longestCrossingSpan(String table) {
    Record2<String, Long> row =
        dsl.select(NAME, seconds(CROSSING_SPAN)).from(tables).where(NAME.eq(table)).fetchOne();
    return row == null || row.value2() == null
        ? Optional.empty()
        : Optional.of(Duration.ofSeconds(row.value2()));
  }

  /** Raises the recorded longest crossing span of {@code table} to at least {@code span}. */
  public void recordCrossingSpan(String table, Duration span) {
    dsl.query(
            "UPDATE {0} SET {1} = greatest(coalesce({1}, interval '0'), {2}) WHERE {3} = {4}",
            tables, CROSSING_SPAN, interval(span), NAME, DSL.val(table))
        .execute();
  }

  /** Whole seconds, rounded up so that a bound derived from it is never too narrow. */
  private static Field<Long> seconds(Field<Object> interval) {
    return DSL.field("ceil(extract(epoch from {0}))::bigint", SQLDataType.BIGINT, interval);
  }

  private static Field<Object> interval(Duration d) {
    return DSL.field("cast({0} as interval)", Object.class, DSL.val(d.toString()));
  }
}
