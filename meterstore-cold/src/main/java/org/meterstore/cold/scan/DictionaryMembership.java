package org.meterstore.cold.scan;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import org.apache.iceberg.parquet.ParquetUtil;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.DictionaryPageReadStore;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.filter2.predicate.Operators;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;

/**
 * Rules a row group out when an equality of the page predicate names a text value its column
 * chunk's dictionary does not hold (a chunk written wholly with its dictionary, as MeterStore's
 * {@code malo_id} and {@code obis_code} chunks are; Parquet writes no bloom filter for such a
 * chunk, its dictionary being exact). The dictionary's values are read once per file and chunk and
 * kept with the file's footer ({@link CachedFile#textValues}), so a lookup is one hash probe.
 *
 * <p>Why not Iceberg's {@code ParquetDictionaryRowGroupFilter}: it decodes the dictionary into a
 * comparator-ordered set on every call, which was a third of a one-location read's time.
 */
final class DictionaryMembership {
  private DictionaryMembership() {}

  /**
   * Whether the rows of {@code block} may match {@code p}; true when unsure (a leaf that is not a
   * text equality, a chunk with pages outside its dictionary, no dictionary).
   */
  static boolean mayMatch(
      FilterPredicate p,
      BlockMetaData block,
      MessageType fileSchema,
      CachedFile cached,
      DictionaryPageReadStore dictionaries)
      throws IOException {
    if (p instanceof Operators.And and) {
      return mayMatch(and.getLeft(), block, fileSchema, cached, dictionaries)
          && mayMatch(and.getRight(), block, fileSchema, cached, dictionaries);
    }
    if (p instanceof Operators.Or or) {
      return mayMatch(or.getLeft(), block, fileSchema, cached, dictionaries)
          || mayMatch(or.getRight(), block, fileSchema, cached, dictionaries);
    }
    if (p instanceof Operators.Eq<?> eq && eq.getValue() instanceof Binary value) {
      ColumnChunkMetaData chunk = chunk(block, eq.getColumn());
      if (chunk == null || ParquetUtil.hasNonDictionaryPages(chunk)) {
        return true;
      }
      ColumnDescriptor column = fileSchema.getColumnDescription(chunk.getPath().toArray());
      Set<Binary> held =
          cached.textValues(chunk.getStartingPos(), () -> values(dictionaries, column));
      return held == null || held.contains(value);
    }
    return true;
  }

  private static ColumnChunkMetaData chunk(BlockMetaData block, Operators.Column<?> column) {
    for (ColumnChunkMetaData c : block.getColumns()) {
      if (c.getPath().equals(column.getColumnPath())) {
        return c;
      }
    }
    return null;
  }

  /** The dictionary's values, copied out of the page; null without a dictionary page. */
  private static Set<Binary> values(DictionaryPageReadStore store, ColumnDescriptor column)
      throws IOException {
    DictionaryPage page = store.readDictionaryPage(column);
    if (page == null) {
      return null;
    }
    Dictionary d = page.getEncoding().initDictionary(column, page);
    Set<Binary> values = new HashSet<>();
    for (int id = 0; id <= d.getMaxId(); id++) {
      values.add(Binary.fromConstantByteArray(d.decodeToBinary(id).getBytes()));
    }
    return values;
  }
}
