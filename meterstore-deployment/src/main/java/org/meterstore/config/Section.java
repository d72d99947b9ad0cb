package org.meterstore.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Period;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One TOML table being read: it knows its path ({@code tables[1]}), interpolates {@code ${ENV}} in
 * every string it hands out, remembers which keys were asked for, and {@link #finish() finishes} by
 * refusing any key nobody asked for. Secrets are read with {@link #secret} so that no message about
 * them shows their value.
 */
final class Section {
  private final JsonNode node;
  private final String path;
  private final Map<String, String> env;
  private final Set<String> known = new LinkedHashSet<>();

  Section(JsonNode node, String path, Map<String, String> env) {
    this.node = node;
    this.path = path;
    this.env = env;
  }

  String path() {
    return path;
  }

  String key(String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  private JsonNode raw(String name) {
    known.add(name);
    JsonNode v = node.get(name);
    return v == null || v.isNull() ? null : v;
  }

  boolean has(String name) {
    return node.get(name) != null;
  }

  String string(String name, String fallback) {
    JsonNode v = raw(name);
    if (v == null) {
      return fallback;
    }
    if (!v.isTextual()) {
      throw invalid(name, "a string");
    }
    return Interpolation.apply(v.textValue(), key(name), env);
  }

  Secret secret(String name) {
    JsonNode v = raw(name);
    if (v == null) {
      return null;
    }
    if (!v.isTextual()) {
      throw ConfigErrors.config("Invalid " + key(name) + ": (secret not shown) (a string)");
    }
    return Secret.of(Interpolation.apply(v.textValue(), key(name), env));
  }

  int integer(String name, int fallback, int min, int max) {
    JsonNode v = raw(name);
    if (v == null) {
      return fallback;
    }
    String rule = "a whole number from " + min + " to " + max;
    if (!v.isIntegralNumber() || !v.canConvertToInt()) {
      throw invalid(name, rule);
    }
    if (v.intValue() < min || v.intValue() > max) {
      throw outOfRange(name, v.intValue(), rule);
    }
    return v.intValue();
  }

  boolean bool(String name, boolean fallback) {
    JsonNode v = raw(name);
    if (v == null) {
      return fallback;
    }
    if (!v.isBoolean()) {
      throw invalid(name, "true or false");
    }
    return v.booleanValue();
  }

  Duration duration(String name, Duration fallback) {
    String text = unitText(name, Units.DURATION_RULE);
    if (text == null) {
      return fallback;
    }
    Duration d = Units.duration(text);
    if (d == null) {
      throw invalid(name, Units.DURATION_RULE);
    }
    return d;
  }

  Period period(String name, Period fallback) {
    String text = unitText(name, Units.PERIOD_RULE);
    if (text == null) {
      return fallback;
    }
    Period p = Units.period(text);
    if (p == null) {
      throw invalid(name, Units.PERIOD_RULE);
    }
    return p;
  }

  long bytes(String name, long fallback) {
    String text = unitText(name, Units.SIZE_RULE);
    if (text == null) {
      return fallback;
    }
    long b = Units.bytes(text);
    if (b < 0) {
      throw invalid(name, Units.SIZE_RULE);
    }
    return b;
  }

  Path path(String name, Path base, Path fallback) {
    String text = string(name, null);
    if (text == null) {
      return fallback;
    }
    if (text.isBlank()) {
      throw invalid(name, "a directory path");
    }
    return base.resolve(text).normalize();
  }

  List<String> strings(String name) {
    JsonNode v = raw(name);
    List<String> out = new ArrayList<>();
    if (v == null) {
      return out;
    }
    if (!v.isArray()) {
      throw invalid(name, "an array of strings");
    }
    for (int i = 0; i < v.size(); i++) {
      JsonNode e = v.get(i);
      if (!e.isTextual()) {
        throw invalid(name + "[" + i + "]", "a string");
      }
      out.add(Interpolation.apply(e.textValue(), key(name) + "[" + i + "]", env));
    }
    return out;
  }

  /** The sub-table {@code name}, or an empty one when absent. */
  Section table(String name) {
    JsonNode v = raw(name);
    if (v != null && !v.isObject()) {
      throw invalid(name, "a table, not a " + typeName(v));
    }
    return new Section(
        v == null ? com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode() : v,
        key(name),
        env);
  }

  /** The array of tables {@code name} ({@code [[name]]}), empty when absent. */
  List<Section> tables(String name) {
    JsonNode v = raw(name);
    List<Section> out = new ArrayList<>();
    if (v == null) {
      return out;
    }
    if (!v.isArray()) {
      throw invalid(name, "[[" + key(name) + "]] entries, not a " + typeName(v));
    }
    for (int i = 0; i < v.size(); i++) {
      if (!v.get(i).isObject()) {
        throw invalid(name + "[" + i + "]", "a table");
      }
      out.add(new Section(v.get(i), key(name) + "[" + i + "]", env));
    }
    return out;
  }

  /** The keys of this table, for free-form maps such as the erasure key ring. */
  List<String> keys() {
    List<String> keys = new ArrayList<>();
    Iterator<String> it = node.fieldNames();
    it.forEachRemaining(keys::add);
    return keys;
  }

  /** Refuses every key that was not asked for, naming it with its path. */
  void finish() {
    Iterator<String> it = node.fieldNames();
    while (it.hasNext()) {
      String name = it.next();
      if (!known.contains(name)) {
        throw ConfigErrors.config(
            "Unknown key "
                + key(name)
                + " (known keys"
                + (path.isEmpty() ? "" : " of " + path)
                + ": "
                + String.join(", ", new TreeSet<>(known))
                + ")");
      }
    }
  }

  private String unitText(String name, String rule) {
    JsonNode v = raw(name);
    if (v == null) {
      return null;
    }
    if (v.isNumber()) {
      throw invalid(name, rule + "; a bare number has no unit");
    }
    if (!v.isTextual()) {
      throw invalid(name, rule);
    }
    return Interpolation.apply(v.textValue(), key(name), env);
  }

  /**
   * A value that failed to parse, or is not one of the allowed words. The value itself is never
   * shown: a secret pasted into the wrong key must not reach a terminal or a log (issue #38).
   */
  RuntimeException invalid(String name, String rule) {
    return ConfigErrors.config("Invalid " + key(name) + ": (value not shown) (" + rule + ")");
  }

  /** A value that parsed (a number, a duration) but lies outside its range: shown as parsed. */
  RuntimeException outOfRange(String name, Object parsed, String rule) {
    return ConfigErrors.config("Invalid " + key(name) + ": " + parsed + " (" + rule + ")");
  }

  private static String typeName(JsonNode v) {
    return v.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
  }
}
