package org.meterstore.cli.output;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * What one command prints: named fields in order. Values are strings, numbers, booleans, instants,
 * dates, {@link Rows}, nested documents, lists or null. The JSON format prints the fields as one
 * object; the table format prints scalars as {@code name: value} lines and {@link Rows} as aligned
 * tables under their name. Fields marked {@link #jsonOnly} are left out of tables (e.g. a query's
 * column types, which the table header already shows as names).
 */
public final class Document {
  private final Map<String, Object> fields = new LinkedHashMap<>();
  private final Set<String> jsonOnly = new LinkedHashSet<>();
  private final Set<String> untitled = new LinkedHashSet<>();
  private final Set<String> tableOnly = new LinkedHashSet<>();

  /** Adds or replaces a field. */
  public Document put(String name, Object value) {
    fields.put(name, value);
    return this;
  }

  /** Adds a field that only the JSON format prints. */
  public Document putJsonOnly(String name, Object value) {
    fields.put(name, value);
    jsonOnly.add(name);
    return this;
  }

  /** Adds rows that the table format prints without a title line (the command's main result). */
  public Document putMain(String name, Rows rows) {
    fields.put(name, rows);
    untitled.add(name);
    return this;
  }

  /** Adds rows that only the table format prints, without a title line. */
  public Document putTableOnly(String name, Rows rows) {
    fields.put(name, rows);
    tableOnly.add(name);
    untitled.add(name);
    return this;
  }

  /** Whether {@code name} is printed in tables only. */
  public boolean isTableOnly(String name) {
    return tableOnly.contains(name);
  }

  /** The fields, in order. */
  public Map<String, Object> fields() {
    return Collections.unmodifiableMap(fields);
  }

  /** Whether {@code name} is printed in JSON only. */
  public boolean isJsonOnly(String name) {
    return jsonOnly.contains(name);
  }

  /** Whether {@code name} is printed without a title line in tables. */
  public boolean isUntitled(String name) {
    return untitled.contains(name);
  }

  /** The value of {@code name}, or null. */
  public Object get(String name) {
    return fields.get(name);
  }
}
