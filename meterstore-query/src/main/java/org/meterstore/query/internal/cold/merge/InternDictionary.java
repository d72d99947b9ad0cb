package org.meterstore.query.internal.cold.merge;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.meterstore.cold.scan.TextDictionary;

/**
 * A growing dictionary that holds each string once, so that equal ids mean equal strings: the text
 * of rows gathered from several files (one month's resolution) or from records. It grows with the
 * distinct strings of what it gathers, which for a month is bounded by that month's keys.
 */
final class InternDictionary implements TextDictionary {
  private final List<String> values = new ArrayList<>();
  private final Map<String, Integer> ids = new HashMap<>();

  int intern(String value) {
    Integer id = ids.get(value);
    if (id == null) {
      id = values.size();
      values.add(value);
      ids.put(value, id);
    }
    return id;
  }

  @Override
  public String value(int id) {
    return values.get(id);
  }

  @Override
  public int size() {
    return values.size();
  }
}
