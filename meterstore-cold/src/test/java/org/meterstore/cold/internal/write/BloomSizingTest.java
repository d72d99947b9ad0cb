package org.meterstore.cold.internal.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.internal.layout.TableLayout;

/**
 * Which files get bloom filters: none below 1,000 rows, none for a chunk that surely stays a
 * dictionary (Parquet would drop its filter), one sized for its distinct values otherwise.
 */
class BloomSizingTest {
  private static final long DICTIONARY = TableProperties.PARQUET_DICT_SIZE_BYTES_DEFAULT;
  private InMemoryCatalog catalog;
  private Table table;

  @BeforeEach
  void open() {
    catalog = new InMemoryCatalog();
    catalog.initialize("t", Map.of());
    catalog.createNamespace(Namespace.of("ns"));
    TableDefinition def = TableDefinition.interval("t");
    table =
        catalog.createTable(
            TableIdentifier.of("ns", "t"),
            TableLayout.schema(def),
            null,
            TableLayout.properties(def, 128L << 20));
  }

  @AfterEach
  void close() throws Exception {
    catalog.close();
  }

  private static String enabled(String column) {
    return TableProperties.PARQUET_BLOOM_FILTER_COLUMN_ENABLED_PREFIX + column;
  }

  private Map<String, String> properties(long rows, long malos, long channels) {
    return new BloomSizing(
            rows,
            Map.of("malo_id", malos, "obis_code", channels),
            true,
            Map.of("malo_id", 11, "obis_code", 9))
        .properties(table);
  }

  @Test
  void aChunkOfManyRowsPerValueStaysADictionaryAndGetsNoFilter() {
    assertThat(BloomSizing.dictionaryOnly(96_000, 1_000, 11, DICTIONARY)).isTrue();
    assertThat(BloomSizing.dictionaryOnly(16_000, 1_000, 11, DICTIONARY)).isTrue();
    // fewer rows per value: the first page's dictionary may not pay
    assertThat(BloomSizing.dictionaryOnly(15_999, 1_000, 11, DICTIONARY)).isFalse();
    // a dictionary past a quarter of Parquet's 2 MiB (11 characters: at most 37 bytes a value)
    assertThat(BloomSizing.dictionaryOnly(100_000_000, 14_169, 11, DICTIONARY)).isTrue();
    assertThat(BloomSizing.dictionaryOnly(100_000_000, 14_170, 11, DICTIONARY)).isFalse();

    Map<String, String> dense = properties(96_000, 1_000, 2);
    assertThat(dense).containsEntry(enabled("malo_id"), "false");
    assertThat(dense).containsEntry(enabled("obis_code"), "false");
  }

  @Test
  void aChunkOfFewRowsPerValueGetsAFilterSizedForItsValues() {
    Map<String, String> sparse = properties(5_000, 5_000, 2);
    assertThat(sparse).doesNotContainKey(enabled("malo_id"));
    assertThat(sparse)
        .containsEntry(TableProperties.PARQUET_BLOOM_FILTER_COLUMN_NDV_PREFIX + "malo_id", "5000");
    assertThat(sparse).containsEntry(enabled("obis_code"), "false"); // two channels: a dictionary
    // a small file: no filter whatever it holds
    assertThat(properties(999, 999, 999)).containsEntry(enabled("malo_id"), "false");
  }

  @Test
  void aColumnWithoutADictionaryKeepsItsFilter() {
    table
        .updateProperties()
        .set(TableProperties.PARQUET_DICT_ENCODING_ENABLED_COLUMN_PREFIX + "malo_id", "false")
        .commit();
    assertThat(properties(96_000, 1_000, 2)).doesNotContainKey(enabled("malo_id"));
  }
}
