package org.meterstore.hot.internal.sql;

import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Quotes identifiers for SQL text. Every identifier MeterStore writes into a statement (schema,
 * table, partition, column and constraint names) is first checked against {@code [a-z][a-z0-9_]*},
 * at most 63 bytes, so that it cannot contain a quote and quoting it is exact. Quoting is
 * unconditional because {@code from}, {@code to} and {@code value} are reserved words.
 */
public final class Identifiers {
  private static final Pattern IDENTIFIER = Pattern.compile("[a-z][a-z0-9_]{0,62}");

  private Identifiers() {}

  /** {@code "name"}, after checking that {@code name} is a plain lowercase identifier. */
  public static String quote(String name) {
    if (name == null || !IDENTIFIER.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "Invalid identifier: " + name + " (a lowercase identifier of at most 63 characters)");
    }
    return '"' + name + '"';
  }

  /** {@code "schema"."name"}. */
  public static String qualified(String schema, String name) {
    return quote(schema) + '.' + quote(name);
  }

  /** {@code "a", "b", "c"}. */
  public static String quoteAll(List<String> names) {
    return names.stream().map(Identifiers::quote).collect(Collectors.joining(", "));
  }
}
