package org.meterstore.api.table;

import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * How MeterStore checks and writes an identifier into SQL text. The hot tier's statements quote
 * with {@link #quote}; the query module's SQL (hot scans and the texts published for other engines)
 * is rendered by Calcite's dialects, which quote themselves, after {@link #checked}. Every
 * identifier (schema, table, partition, column and constraint names) is first checked against
 * {@code [a-z][a-z0-9_]*}, at most 63 bytes (PostgreSQL's limit), so it cannot contain a quote and
 * quoting it is exact. Quoting is unconditional, because {@code from}, {@code to} and {@code value}
 * are reserved words. Values never go into SQL text: they are bound.
 */
public final class SqlIdentifiers {
  private static final Pattern IDENTIFIER = Pattern.compile("[a-z][a-z0-9_]{0,62}");

  private SqlIdentifiers() {}

  /**
   * {@code "name"}, after checking that {@code name} is a plain lowercase identifier.
   *
   * @throws IllegalArgumentException for anything else (null, upper case, quotes, too long)
   */
  public static String quote(String name) {
    return '"' + checked(name) + '"';
  }

  /**
   * {@code name} itself, after checking that it is a plain lowercase identifier: for SQL that a
   * library renders (MeterStore's query SQL through Calcite's dialects), which quotes it itself.
   *
   * @throws IllegalArgumentException for anything else (null, upper case, quotes, too long)
   */
  public static String checked(String name) {
    if (name == null || !IDENTIFIER.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "Invalid identifier: " + name + " (a lowercase identifier of at most 63 characters)");
    }
    return name;
  }

  /** {@code "schema"."name"}, both checked as by {@link #quote}. */
  public static String qualified(String schema, String name) {
    return quote(schema) + '.' + quote(name);
  }

  /** {@code "a", "b", "c"}, each checked as by {@link #quote}. */
  public static String quoteAll(List<String> names) {
    return names.stream().map(SqlIdentifiers::quote).collect(Collectors.joining(", "));
  }
}
