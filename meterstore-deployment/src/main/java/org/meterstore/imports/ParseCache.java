package org.meterstore.imports;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Parsed values by their text. A history file repeats few distinct texts per column (the same
 * quarter-hours for every meter, one OBIS code, a scope per month), and parsing an instant costs
 * some twenty times a map look-up. Bounded: cleared when it holds {@value #LIMIT} texts, so a file
 * of all-distinct values costs one look-up more per field and no memory. A text that fails to parse
 * is not remembered (the parser's exception propagates). The last text asked for is answered
 * without a look-up when it comes again as the same object (the CSV reader hands out one {@code
 * String} per distinct text of a column).
 */
final class ParseCache<T> {
  static final int LIMIT = 4096;
  private final Map<String, T> values = new HashMap<>();
  private final Function<String, T> parser;
  private String lastText;
  private T lastValue;

  ParseCache(Function<String, T> parser) {
    this.parser = parser;
  }

  T get(String text) {
    if (text == lastText && text != null) {
      return lastValue;
    }
    T value = values.get(text);
    if (value == null) {
      value = parser.apply(text);
      if (values.size() >= LIMIT) {
        values.clear();
      }
      values.put(text, value);
    }
    lastText = text;
    lastValue = value;
    return value;
  }
}
