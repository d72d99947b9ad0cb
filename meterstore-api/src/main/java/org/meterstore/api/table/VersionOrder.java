package org.meterstore.api.table;

import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Which of two stored versions of one reading wins (DESIGN § 3.3): the higher {@code version};
 * between equal versions, the later {@code recorded_at}. Written once here and used by every place
 * that resolves versions: the hot tier's outcomes, the SQL sent to PostgreSQL, the in-memory
 * resolution of cold rows and the resolution SQL published for other engines.
 */
public final class VersionOrder {
  private VersionOrder() {}

  /**
   * Whether the version {@code (version, recordedAt)} outranks {@code (otherVersion,
   * otherRecordedAt)}. The arguments may be any mutually comparable representation of the two
   * columns (for example {@code BigDecimal} versions and {@code Instant} or epoch-microsecond
   * {@code Long} timestamps); none may be null.
   */
  public static <V extends Comparable<? super V>, R extends Comparable<? super R>> boolean outranks(
      V version, R recordedAt, V otherVersion, R otherRecordedAt) {
    int byVersion = version.compareTo(Objects.requireNonNull(otherVersion, "otherVersion"));
    return byVersion != 0
        ? byVersion > 0
        : recordedAt.compareTo(Objects.requireNonNull(otherRecordedAt, "otherRecordedAt")) > 0;
  }

  /**
   * The winner-first {@code ORDER BY} list of a window over one merge key: {@code "version" DESC,
   * "recorded_at" DESC}. With {@code ROW_NUMBER() OVER (PARTITION BY <merge key>, version_scope
   * ORDER BY <this>) = 1} a SQL engine keeps exactly the winners.
   */
  public static String sqlOrderBy() {
    return sqlOrderBy(SqlIdentifiers::quote);
  }

  /**
   * {@link #sqlOrderBy()} with the identifiers quoted by {@code quote}, for engines that quote
   * otherwise (Spark's backticks).
   */
  public static String sqlOrderBy(UnaryOperator<String> quote) {
    return descendingColumns().stream()
        .map(c -> quote.apply(c) + " DESC")
        .collect(java.util.stream.Collectors.joining(", "));
  }

  /**
   * The columns of the winner-first order, each sorted descending: {@code version}, then {@code
   * recorded_at}. For SQL that a library renders (the query module's Calcite trees).
   */
  public static List<String> descendingColumns() {
    return COLUMNS;
  }

  private static final List<String> COLUMNS =
      List.of(StandardColumn.VERSION.columnName(), StandardColumn.RECORDED_AT.columnName());
}
