package org.meterstore.hot.internal.schema;

import static org.meterstore.api.table.SqlIdentifiers.quote;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.commodity.Unit;
import org.meterstore.api.reading.Quality;
import org.meterstore.api.table.ColumnRole;
import org.meterstore.api.table.ExtraColumn;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.api.table.TimeModel;

/**
 * The CHECK constraints of a parent table: the canonical forms of DESIGN § 3.2 restated in SQL, so
 * that a row written around MeterStore (by hand, by a migration script) is held to the same rules
 * as one written through it. The api's rules stay the primary check, with precise messages; these
 * are the backstop. Expressions use {@code CASE} where a later test would fail on input an earlier
 * one rejects, because SQL does not promise to evaluate {@code AND} left to right.
 */
public final class CheckConstraints {
  /** One group of an OBIS code: 0 to 255 without leading zeros. */
  private static final String OBIS_GROUP = "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";

  private static final String OBIS_PATTERN =
      "^"
          + OBIS_GROUP
          + "-"
          + OBIS_GROUP
          + ":"
          + OBIS_GROUP
          + "\\."
          + OBIS_GROUP
          + "\\."
          + OBIS_GROUP
          + "$";

  private CheckConstraints() {}

  /** Every check of {@code table}, in a stable order. */
  public static List<CheckConstraint> of(TableDefinition table) {
    List<CheckConstraint> checks = new ArrayList<>();
    checks.add(new CheckConstraint("malo_id_is_canonical", malo(quote("malo_id"))));
    checks.add(new CheckConstraint("melo_id_is_canonical", nullOr("melo_id", melo("melo_id"))));
    checks.add(new CheckConstraint("obis_code_is_canonical", matches("obis_code", OBIS_PATTERN)));
    checks.add(new CheckConstraint("sparte_is_known", in("sparte", names(Commodity.values()))));
    checks.add(new CheckConstraint("unit_fits_sparte", unitFitsSparte()));
    checks.add(new CheckConstraint("quality_is_known", in("quality", names(Quality.values()))));
    checks.add(new CheckConstraint("resolution_is_canonical", nullOr("resolution", resolution())));
    checks.add(
        new CheckConstraint(
            "version_scope_is_canonical",
            matches("version_scope", "^[0-9]{13}:[0-9]{4}-(0[1-9]|1[0-2])$")));
    checks.add(new CheckConstraint("version_is_not_negative", quote("version") + " >= 0"));
    checks.add(new CheckConstraint("to_after_from", quote("to") + " > " + quote("from")));
    checks.add(new CheckConstraint("time_model_is_" + lower(table.timeModel()), timeModel(table)));
    GridCheck.of(table).ifPresent(checks::add);
    for (int i = 0; i < table.extraColumns().size(); i++) {
      ExtraColumn column = table.extraColumns().get(i);
      checks.add(new CheckConstraint(extraName(i, column), extra(column)));
    }
    return List.copyOf(checks);
  }

  /** The BDEW check-digit rule of a MaLo-ID over {@code column}, null-safe and error-free. */
  static String malo(String column) {
    StringBuilder sum = new StringBuilder();
    for (int i = 1; i <= 10; i++) {
      String digit = "substr(" + column + ", " + i + ", 1)::int";
      sum.append(sum.length() == 0 ? "" : " + ").append(i % 2 == 1 ? digit : "2 * " + digit);
    }
    return "CASE WHEN "
        + column
        + " ~ '^[1-9][0-9]{10}$' THEN (10 - ("
        + sum
        + ") % 10) % 10 = substr("
        + column
        + ", 11, 1)::int ELSE false END";
  }

  private static String melo(String column) {
    return quote(column) + " ~ '^[A-Z]{2}[A-Z0-9]{31}$'";
  }

  /** Canonical ISO-8601 as {@code Duration.toString()} writes it: no zero or overflowing part. */
  private static String resolution() {
    String sixty = "([1-9]|[1-5][0-9])";
    return quote("resolution")
        + " ~ '^(P1D|P1M|P1Y|PT(([1-9]|1[0-2])H)?("
        + sixty
        + "M)?("
        + sixty
        + "S)?)$' AND "
        + quote("resolution")
        + " <> 'PT'";
  }

  private static String unitFitsSparte() {
    return Arrays.stream(Commodity.values())
        .map(
            c ->
                "("
                    + quote("sparte")
                    + " = '"
                    + c.name()
                    + "' AND "
                    + in("unit", c.units().stream().map(Unit::name).collect(sorted()))
                    + ")")
        .collect(Collectors.joining(" OR "));
  }

  private static String timeModel(TableDefinition table) {
    return quote("to") + (table.timeModel() == TimeModel.INTERVAL ? " IS NOT NULL" : " IS NULL");
  }

  private static String extra(ExtraColumn column) {
    String name = column.name();
    if (column.role() == ColumnRole.CODED) {
      return nullOr(name, in(name, new TreeSet<>(column.allowedValues())));
    }
    if (column.role() != ColumnRole.CHECKED) {
      return nullOr(name, quote(name) + " <> ''");
    }
    switch (column.checkedKind()) {
      case MALO:
        return nullOr(name, malo(quote(name)));
      case MELO:
        return nullOr(name, melo(name));
      case EIC:
        return nullOr(name, quote(name) + " ~ '^[0-9A-Z-]{15}[0-9A-Z]$'");
      case BDEW:
        return nullOr(name, quote(name) + " ~ '^[0-9]{13}$'");
      default:
        throw new IllegalStateException("unknown checked kind " + column.checkedKind());
    }
  }

  /** {@code <column>_is_valid}, or {@code extra_<i>_is_valid} when that would exceed 63 bytes. */
  private static String extraName(int index, ExtraColumn column) {
    String name = column.name() + "_is_valid";
    return name.length() <= 63 ? name : "extra_" + index + "_is_valid";
  }

  private static String nullOr(String column, String condition) {
    return quote(column) + " IS NULL OR (" + condition + ")";
  }

  private static String matches(String column, String pattern) {
    return quote(column) + " ~ '" + pattern + "'";
  }

  /** {@code "column" IN ('a', 'b')}; values are code constants, checked to hold no quote. */
  private static String in(String column, Set<String> values) {
    for (String v : values) {
      if (v.indexOf('\'') >= 0 || v.indexOf('\\') >= 0) {
        throw new MeterStoreException(
            ErrorKind.CONFIG,
            "Invalid allowed value of column " + column + ": " + v + " (no quote or backslash)");
      }
    }
    return quote(column)
        + " IN ("
        + values.stream().map(v -> "'" + v + "'").collect(Collectors.joining(", "))
        + ")";
  }

  private static Set<String> names(Enum<?>[] values) {
    return Arrays.stream(values).map(Enum::name).collect(sorted());
  }

  private static java.util.stream.Collector<String, ?, TreeSet<String>> sorted() {
    return Collectors.toCollection(TreeSet::new);
  }

  private static String lower(TimeModel model) {
    return model.name().toLowerCase(java.util.Locale.ROOT);
  }
}
