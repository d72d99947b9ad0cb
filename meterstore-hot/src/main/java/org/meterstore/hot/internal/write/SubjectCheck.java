package org.meterstore.hot.internal.write;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.SqlIdentifiers;
import org.meterstore.api.table.StandardColumn;
import org.meterstore.hot.subject.SubjectRef;

/**
 * Refuses a batch whose readings name a subject reference the registry does not back, or one issued
 * for another collection year than the reading's balancing year (DESIGN § 9): otherwise a reading
 * could claim a person it does not belong to, or survive its year's retention sweep under a
 * reference of a later year. One statement for the whole batch, in the write's transaction; only
 * tables with a subject column pay for it.
 */
final class SubjectCheck {
  private final int position;
  private final int balancingDay;
  private final String sql;

  SubjectCheck(TableLayout layout, String schema) {
    String column = layout.table().subjectColumn();
    this.position = column == null ? -1 : layout.position(column);
    this.balancingDay = layout.position(StandardColumn.BALANCING_DAY.columnName());
    this.sql =
        "SELECT reference, collection_year FROM "
            + SqlIdentifiers.qualified(schema, "subjects")
            + " WHERE reference = ANY(?)";
  }

  /**
   * Checks every subject of {@code rows}.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} naming the table, the first refused reading
   *     and the rule ({@code subject_is_registered} or {@code subject_year_matches_reading})
   */
  void check(Connection c, String table, Iterable<BatchRow> rows) throws SQLException {
    if (position < 0) {
      return;
    }
    Set<String> wanted = new LinkedHashSet<>();
    for (BatchRow row : rows) {
      String subject = (String) row.values()[position];
      if (subject != null) {
        requireCanonical(table, row, subject);
        wanted.add(subject);
      }
    }
    if (wanted.isEmpty()) {
      return;
    }
    Map<String, Integer> years = registeredYears(c, wanted);
    for (BatchRow row : rows) {
      String subject = (String) row.values()[position];
      if (subject == null) {
        continue;
      }
      Integer year = years.get(subject);
      int readingYear = ((LocalDate) row.values()[balancingDay]).getYear();
      if (year == null) {
        throw Violation.SUBJECT_NOT_REGISTERED.refuse(
            table,
            row,
            "names subject "
                + subject
                + ", which the subject registry does not back (erased, or never registered)");
      }
      if (year != readingYear) {
        throw Violation.SUBJECT_OF_ANOTHER_YEAR.refuse(
            table,
            row,
            "names subject "
                + subject
                + " of collection year "
                + year
                + ", but the reading belongs to balancing year "
                + readingYear);
      }
    }
  }

  private Map<String, Integer> registeredYears(Connection c, Set<String> references)
      throws SQLException {
    Map<String, Integer> years = new HashMap<>();
    try (PreparedStatement s = c.prepareStatement(sql)) {
      s.setArray(1, c.createArrayOf("text", references.toArray(String[]::new)));
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          years.put(rs.getString(1), rs.getInt(2));
        }
      }
    }
    return years;
  }

  private static void requireCanonical(String table, BatchRow row, String subject) {
    try {
      SubjectRef.parse(subject);
    } catch (MeterStoreException e) {
      throw Violation.SUBJECT_NOT_REGISTERED.refuse(
          table, row, "carries a malformed subject: " + e.getMessage());
    }
  }
}
