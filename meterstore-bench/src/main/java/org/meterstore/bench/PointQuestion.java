package org.meterstore.bench;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import org.meterstore.api.calendar.MeteringCalendar;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.table.SqlIdentifiers;

/**
 * The four questions of benchmark 11 about one market location, each a prepared statement whose
 * parameters are the location and a {@code from} range {@code [from, to)} (Europe/Berlin midnights,
 * bound as instants), asked of MeterStore and, in the published resolution, of plain PostgreSQL.
 * With W = 2026-03-12T00:00Z the first and the last read only the cold tier, the second only the
 * hot tier and the third both.
 */
enum PointQuestion {
  /** Its February, every row (cold tier). */
  COLD_MONTH("cold month", false, day(2026, 2, 1), day(2026, 3, 1), 1.5, 0.67),
  /** Its last five days, 15–19 March, every row (hot tier). */
  HOT_5_DAYS("hot 5 days", false, day(2026, 3, 15), day(2026, 3, 20), 1.25, 0.8),
  /** 25 February – 24 March, every row (both tiers). */
  MONTH_ACROSS_W("month across W", false, day(2026, 2, 25), day(2026, 3, 25), 1.5, 0.67),
  /** Its February as daily sums per balancing day (cold tier). */
  DAILY_SUMS("daily sums", true, day(2026, 2, 1), day(2026, 3, 1), 1.5, 0.67);

  /** The merge key of the benchmark's table, quoted, comma-separated (DESIGN § 3.3). */
  private static final String KEY = SqlIdentifiers.quoteAll(PointData.TABLE.mergeKey());

  /**
   * The version winner (DESIGN § 3.3, docs/storage-model.md): the highest {@code version} per merge
   * key within one {@code version_scope}, ties by the later {@code recorded_at}. In this data set
   * every reading has one operator, so the scope is a function of the merge key and this is the
   * plain {@code DISTINCT ON (malo_id, obis_code, "from")}.
   */
  static final String WINNER = "DISTINCT ON (" + KEY + ", version_scope)";

  private static final String WINNER_ORDER =
      " ORDER BY " + KEY + ", version_scope, version DESC, recorded_at DESC";

  private static final String ROW_COLUMNS =
      "\"from\", \"to\", obis_code, \"value\", quality, version";

  private static final String WHERE = " WHERE malo_id = ? AND \"from\" >= ? AND \"from\" < ?";

  final String label;
  final boolean daily;
  final Instant from;
  final Instant to;
  final double p50Bound;
  final double throughputBound;

  PointQuestion(
      String label,
      boolean daily,
      Instant from,
      Instant to,
      double p50Bound,
      double throughputBound) {
    this.label = label;
    this.daily = daily;
    this.from = from;
    this.to = to;
    this.p50Bound = p50Bound;
    this.throughputBound = throughputBound;
  }

  private static Instant day(int year, int month, int day) {
    return MeteringCalendar.dayStart(LocalDate.of(year, month, day), Commodity.STROM);
  }

  /** MeterStore's statement over {@code table} (version-resolved by MeterStore). */
  String meterStoreSql(String table) {
    if (daily) {
      return "SELECT balancing_day, SUM(\"value\") AS total FROM "
          + table
          + WHERE
          + " GROUP BY balancing_day ORDER BY balancing_day";
    }
    return "SELECT " + ROW_COLUMNS + " FROM " + table + WHERE + " ORDER BY \"from\", obis_code";
  }

  /** The same question on the plain table {@code qualified}, resolved with {@link #WINNER}. */
  String postgresSql(String qualified) {
    if (daily) {
      return "SELECT balancing_day, SUM(\"value\") AS total FROM (SELECT "
          + WINNER
          + " balancing_day, \"value\" FROM "
          + qualified
          + WHERE
          + WINNER_ORDER
          + ") r GROUP BY balancing_day ORDER BY balancing_day";
    }
    return "SELECT "
        + ROW_COLUMNS
        + " FROM (SELECT "
        + WINNER
        + " "
        + ROW_COLUMNS
        + " FROM "
        + qualified
        + WHERE
        + WINNER_ORDER
        + ") r ORDER BY \"from\", obis_code";
  }

  /**
   * Executes {@code ps} (its parameters bound) and reads every column of every row with the getter
   * a back-end would use, folding each into the answer's digest.
   */
  RowDigest.Fingerprint read(PreparedStatement ps) throws SQLException {
    RowDigest digest = new RowDigest();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        if (daily) {
          digest.add(rs.getString(1)).add(rs.getBigDecimal(2), 6);
        } else {
          digest
              .addMillis(rs.getTimestamp(1))
              .addMillis(rs.getTimestamp(2))
              .add(rs.getString(3))
              .add(rs.getBigDecimal(4), 6)
              .add(rs.getString(5))
              .add(rs.getBigDecimal(6), 0);
        }
        digest.endRow();
      }
    }
    return digest.fingerprint();
  }

  /** E.g. {@code 2026-01-31T23:00:00Z to 2026-02-28T23:00:00Z}. */
  String range() {
    return from + " to " + to;
  }
}
