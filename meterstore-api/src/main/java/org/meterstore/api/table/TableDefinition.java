package org.meterstore.api.table;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.calendar.MeteringCalendar;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.reading.Reading;

/**
 * A declared table: its name, time model, extra columns and tiering policy (DESIGN § 3).
 *
 * @param name a lowercase identifier of at most {@value #MAX_NAME_LENGTH} characters, so that
 *     derived partition names fit PostgreSQL's 63 bytes
 * @param timeModel {@code INTERVAL} (load profile) or {@code POINT} (register readings)
 * @param meloInKey whether readings are identified by metering location too; always true for {@code
 *     POINT} tables
 * @param extraColumns declared extra columns in storage order, names unique
 * @param subjectColumn the name of the optional pseudonymous subject column, or null
 * @param policy tiering and retention settings
 * @param resolution the table's one fixed resolution, or null (the default) for a table whose
 *     readings may have any span. When set, every reading must be exactly one interval of it on the
 *     Europe/Berlin balancing calendar ({@link MeteringCalendar#isAligned}); {@code INTERVAL}
 *     tables only. It takes effect when the table is created: the hot tier refuses a definition
 *     whose resolution differs from the one the table was created with.
 */
public record TableDefinition(
    String name,
    TimeModel timeModel,
    boolean meloInKey,
    List<ExtraColumn> extraColumns,
    String subjectColumn,
    TablePolicy policy,
    Resolution resolution) {

  /** The longest table name: {@code <name>_YYYY_MM_DD_HHMM} must fit in 63 bytes. */
  public static final int MAX_NAME_LENGTH = 34;

  /**
   * The rule a reading off a fixed-resolution table's grid breaks, as messages and the hot tier's
   * CHECK constraint name it.
   */
  public static final String GRID_RULE = "span_on_resolution_grid";

  /** Checks names, uniqueness and the time model's key rule. */
  public TableDefinition {
    requireIdentifier("table name", name, MAX_NAME_LENGTH);
    if (timeModel == null) {
      throw MeterStoreException.invalid("time model", null, "INTERVAL or POINT for table " + name);
    }
    meloInKey = meloInKey || timeModel == TimeModel.POINT;
    extraColumns = List.copyOf(extraColumns == null ? List.of() : extraColumns);
    policy = policy == null ? TablePolicy.DEFAULTS : policy;
    if (resolution != null && timeModel != TimeModel.INTERVAL) {
      throw MeterStoreException.invalid(
          "resolution", resolution, "a fixed resolution is declared on INTERVAL tables only");
    }
    Set<String> seen = new HashSet<>();
    for (ExtraColumn c : extraColumns) {
      if (!seen.add(c.name())) {
        throw MeterStoreException.invalid("column name", c.name(), "declared twice in " + name);
      }
    }
    if (subjectColumn != null) {
      requireIdentifier("subject column", subjectColumn, 63);
      if (StandardColumn.isStandardName(subjectColumn) || seen.contains(subjectColumn)) {
        throw MeterStoreException.invalid(
            "subject column", subjectColumn, "clashes with another column of " + name);
      }
    }
  }

  /** A table without a fixed resolution. */
  public TableDefinition(
      String name,
      TimeModel timeModel,
      boolean meloInKey,
      List<ExtraColumn> extraColumns,
      String subjectColumn,
      TablePolicy policy) {
    this(name, timeModel, meloInKey, extraColumns, subjectColumn, policy, null);
  }

  /** An {@code INTERVAL} table with no extra columns and the default policy. */
  public static TableDefinition interval(String name) {
    return new TableDefinition(name, TimeModel.INTERVAL, false, List.of(), null, null);
  }

  /** A {@code POINT} table with no extra columns and the default policy. */
  public static TableDefinition point(String name) {
    return new TableDefinition(name, TimeModel.POINT, true, List.of(), null, null);
  }

  public TableDefinition withExtraColumns(List<ExtraColumn> columns) {
    return new TableDefinition(
        name, timeModel, meloInKey, columns, subjectColumn, policy, resolution);
  }

  public TableDefinition withMeloInKey(boolean inKey) {
    return new TableDefinition(
        name, timeModel, inKey, extraColumns, subjectColumn, policy, resolution);
  }

  public TableDefinition withSubjectColumn(String column) {
    return new TableDefinition(
        name, timeModel, meloInKey, extraColumns, column, policy, resolution);
  }

  public TableDefinition withPolicy(TablePolicy newPolicy) {
    return new TableDefinition(
        name, timeModel, meloInKey, extraColumns, subjectColumn, newPolicy, resolution);
  }

  /** This table with one fixed resolution, or with none when {@code fixed} is null. */
  public TableDefinition withResolution(Resolution fixed) {
    return new TableDefinition(
        name, timeModel, meloInKey, extraColumns, subjectColumn, policy, fixed);
  }

  /**
   * Whether the table's grid alone keeps two spans of one reading under one version apart, so that
   * the hot tier needs no span exclusion constraint ({@code spans_do_not_overlap}).
   *
   * <p>True when the table declares a resolution that {@linkplain Resolution#dividesAnHour divides
   * an hour}. Every reading then covers {@code [k·r, (k+1)·r)} on the UTC time line for some whole
   * {@code k}, whatever its commodity: two such intervals intersect only when they are equal. Two
   * readings of one reading (merge key without {@code from}) under one version that overlap thus
   * share {@code from}, i.e. their whole primary key, and are one reading delivered twice — a
   * redelivery or a restated value, which the primary key and the write path's version check
   * decide.
   *
   * <p>False for every other table. Without a declaration spans are free. For {@code PT2H} … {@code
   * P1Y} the grid counts from the balancing day's start, which depends on the reading's commodity
   * (06:00 for gas, midnight otherwise), and the merge key does not contain the commodity: a gas
   * day {@code [05:00Z, 05:00Z)} and a calendar day {@code [23:00Z, 23:00Z)} of one reading overlap
   * without sharing {@code from}. Those tables keep the constraint.
   */
  public boolean gridExcludesOverlap() {
    return resolution != null && resolution.dividesAnHour();
  }

  /** The declared identity columns, in declaration order. */
  public List<ExtraColumn> identityColumns() {
    return extraColumns.stream().filter(ExtraColumn::isIdentity).toList();
  }

  /**
   * The merge key: {@code malo_id}, {@code melo_id} when readings are identified by metering
   * location, {@code obis_code}, {@code from}, then every identity column (DESIGN § 3.3).
   */
  public List<String> mergeKey() {
    List<String> key = new ArrayList<>();
    key.add(StandardColumn.MALO_ID.columnName());
    if (meloInKey) {
      key.add(StandardColumn.MELO_ID.columnName());
    }
    key.add(StandardColumn.OBIS_CODE.columnName());
    key.add(StandardColumn.FROM.columnName());
    identityColumns().forEach(c -> key.add(c.name()));
    return List.copyOf(key);
  }

  /** The hot tier's primary key: the merge key plus {@code version}. */
  public List<String> primaryKey() {
    List<String> key = new ArrayList<>(mergeKey());
    key.add(StandardColumn.VERSION.columnName());
    return List.copyOf(key);
  }

  /** Every column in storage order: standard, extra, then the subject column. */
  public List<ColumnSpec> columns() {
    List<ColumnSpec> columns = new ArrayList<>();
    for (StandardColumn c : StandardColumn.values()) {
      ColumnSpec spec = c.spec();
      if (c == StandardColumn.MELO_ID && meloInKey) {
        spec = new ColumnSpec(spec.name(), spec.type(), false);
      }
      columns.add(spec);
    }
    extraColumns.forEach(c -> columns.add(c.spec()));
    if (subjectColumn != null) {
      columns.add(new ColumnSpec(subjectColumn, ColumnType.TEXT, true));
    }
    return List.copyOf(columns);
  }

  /**
   * Checks the table-specific rules of a reading: time model, metering location when it is part of
   * the key, and the extra columns. Returns the extra values to store (canonical, every declared
   * column present, null where absent).
   *
   * @throws MeterStoreException {@code INVALID_INPUT} naming the table, the reading and the rule
   */
  public Map<String, String> accept(Reading reading) {
    if ((timeModel == TimeModel.POINT) != reading.isPoint()) {
      throw MeterStoreException.invalid(
          "reading", reading, "table " + name + " holds " + timeModel + " readings only");
    }
    if (meloInKey && reading.meloId() == null) {
      throw MeterStoreException.invalid(
          "melo_id", null, "table " + name + " identifies readings by metering location");
    }
    if (resolution != null) {
      requireOnGrid(reading);
    }
    if (reading.subject() != null && subjectColumn == null) {
      throw MeterStoreException.invalid(
          "subject", reading.subject(), "table " + name + " declares no subject column");
    }
    if (extraColumns.isEmpty() && reading.extra().isEmpty()) {
      return Map.of();
    }
    for (String key : reading.extra().keySet()) {
      if (extraColumns.stream().noneMatch(c -> c.name().equals(key))) {
        throw MeterStoreException.invalid("column", key, "not declared in table " + name);
      }
    }
    Map<String, String> values = new LinkedHashMap<>();
    for (ExtraColumn c : extraColumns) {
      values.put(c.name(), c.accept(reading.extra().get(c.name())));
    }
    return values;
  }

  /**
   * Refuses a reading that is not one interval of the table's resolution, or that names another
   * resolution. The reading's own resolution, when set, was checked against the grid already.
   */
  private void requireOnGrid(Reading reading) {
    if (reading.resolution() != null && !reading.resolution().equals(resolution)) {
      throw MeterStoreException.invalid(
          "resolution", reading.resolution(), gridRule() + " (" + GRID_RULE + ")");
    }
    if (reading.to() == null
        || !MeteringCalendar.isAligned(
            reading.from(), reading.to(), resolution, reading.commodity())) {
      throw MeterStoreException.invalid(
          "interval",
          "[" + reading.from() + ", " + reading.to() + ")",
          gridRule()
              + ", aligned in Europe/Berlin"
              + (reading.commodity().usesGasDay() && !resolution.dividesAnHour()
                  ? " from the gas day's 06:00"
                  : "")
              + " ("
              + GRID_RULE
              + ")");
    }
  }

  private String gridRule() {
    return "table " + name + " holds one " + resolution + " interval per reading";
  }

  static void requireIdentifier(String field, String value, int maxLength) {
    if (value == null || !value.matches("[a-z][a-z0-9_]*") || value.length() > maxLength) {
      throw MeterStoreException.invalid(
          field,
          value,
          "a lowercase identifier: a letter, then letters, digits or _; at most "
              + maxLength
              + " characters");
    }
  }
}
