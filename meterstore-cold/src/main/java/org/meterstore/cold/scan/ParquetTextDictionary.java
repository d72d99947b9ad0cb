package org.meterstore.cold.scan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.column.Dictionary;

/**
 * The text dictionary of one row group's column chunk: ids below the Parquet dictionary's size are
 * its entries, decoded from UTF-8 once, on first use (once per file and chunk when the file's
 * footer is kept, {@link CachedFile#textStrings}); values of plain-encoded pages (a writer falls
 * back to plain when the dictionary grows too large) get the following ids, one per distinct
 * string.
 */
final class ParquetTextDictionary implements TextDictionary {
  private final Dictionary dictionary;
  private final String[] decoded;
  private final List<String> plain = new ArrayList<>();
  private final Map<String, Integer> plainIds = new HashMap<>();

  ParquetTextDictionary(Dictionary dictionary) {
    this(dictionary, new String[dictionary == null ? 0 : dictionary.getMaxId() + 1]);
  }

  /**
   * The dictionary whose entries are decoded into {@code decoded} (one slot per entry), which
   * readers of the same chunk may share: a slot is written once with an immutable string, so a
   * racing reader at worst decodes the same entry again.
   */
  ParquetTextDictionary(Dictionary dictionary, String[] decoded) {
    this.dictionary = dictionary;
    this.decoded = decoded;
  }

  @Override
  public String value(int id) {
    if (id < decoded.length) {
      String s = decoded[id];
      if (s == null) {
        s = dictionary.decodeToBinary(id).toStringUsingUTF8();
        decoded[id] = s;
      }
      return s;
    }
    return plain.get(id - decoded.length);
  }

  @Override
  public int size() {
    return decoded.length + plain.size();
  }

  /** The id of a plain-encoded value. */
  int idOfPlain(String value) {
    Integer id = plainIds.get(value);
    if (id == null) {
      id = decoded.length + plain.size();
      plain.add(value);
      plainIds.put(value, id);
    }
    return id;
  }
}
