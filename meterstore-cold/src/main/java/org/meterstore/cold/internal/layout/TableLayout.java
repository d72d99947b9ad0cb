package org.meterstore.cold.internal.layout;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortField;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.ColumnType;
import org.meterstore.api.table.ExtraColumn;
import org.meterstore.api.table.StandardColumn;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.commit.SummaryKeys;

/**
 * The cold layout of DESIGN § 5, derived from a {@link TableDefinition} alone so that every process
 * derives the same one: the schema from {@code columns()}, the partition spec {@code
 * identity(identity columns…), month(from)}, the sort order {@code (malo_id, from)} and the table
 * properties. {@link #verify} refuses an existing table whose spec or sort order differs.
 */
public final class TableLayout {
  private static final String MALO = StandardColumn.MALO_ID.columnName();
  private static final String OBIS = StandardColumn.OBIS_CODE.columnName();
  private static final String FROM = StandardColumn.FROM.columnName();

  private TableLayout() {}

  /** The Iceberg type of a column type. */
  public static Type icebergType(ColumnType type) {
    switch (type) {
      case TEXT:
        return Types.StringType.get();
      case TIMESTAMPTZ:
        return Types.TimestampType.withZone();
      case DATE:
        return Types.DateType.get();
      case DECIMAL_18_6:
        return Types.DecimalType.of(18, 6);
      case DECIMAL_20_0:
        return Types.DecimalType.of(20, 0);
      default:
        throw new IllegalStateException("unknown column type " + type);
    }
  }

  /** The schema: one field per column in storage order, ids from 1, required unless nullable. */
  public static Schema schema(TableDefinition table) {
    List<Types.NestedField> fields = new ArrayList<>();
    int id = 1;
    for (ColumnSpec c : table.columns()) {
      Type type = icebergType(c.type());
      fields.add(
          c.nullable()
              ? Types.NestedField.optional(id++, c.name(), type)
              : Types.NestedField.required(id++, c.name(), type));
    }
    return new Schema(fields);
  }

  /** {@code identity(<identity columns>)…, month(from)}. */
  public static PartitionSpec spec(TableDefinition table, Schema schema) {
    PartitionSpec.Builder b = PartitionSpec.builderFor(schema);
    for (ExtraColumn c : table.identityColumns()) {
      b.identity(c.name());
    }
    return b.month(FROM).build();
  }

  /** {@code malo_id ASC NULLS FIRST, from ASC NULLS FIRST}. */
  public static SortOrder sortOrder(Schema schema) {
    return SortOrder.builderFor(schema).asc(MALO).asc(FROM).build();
  }

  /**
   * The columns that carry bloom filters: lookups by market location and by channel. Each file's
   * filters are sized by its writer to the distinct values the file holds ({@code
   * org.meterstore.cold.internal.write.BloomSizing}).
   */
  public static final List<String> BLOOM_COLUMNS = List.of(MALO, OBIS);

  /**
   * The false-positive rate bloom filters are sized for: 1 %, about 9.6 bits per distinct value
   * (Parquet rounds a filter up to a power of two, so 1.2 to 2.4 bytes per distinct value). A
   * lookup then opens one file in a hundred that does not hold the value; a lower rate costs 1.2
   * more bits per value per halving for little: a false positive only costs reading one column
   * chunk.
   */
  public static final double BLOOM_FPP = 0.01;

  /**
   * Columns always written without a dictionary: the timestamps, which a location's quarter-hours
   * (one constant step) delta-encode into a few bits per row. Measured (docs/storage-model.md,
   * "Encodings"): 0.15 bytes per reading for {@code from} in files of ten locations a month against
   * 1.12 with a dictionary; in files of a thousand locations a month, where every timestamp repeats
   * a thousand times, the dictionary is 0.06 bytes smaller.
   */
  public static final List<String> DELTA_COLUMNS =
      List.of(
          StandardColumn.FROM.columnName(),
          StandardColumn.TO.columnName(),
          StandardColumn.RECORDED_AT.columnName());

  /**
   * Columns written without a dictionary in a file of fewer than {@link #SMALL_FILE_ROWS} rows:
   * {@code value}, whose dictionary (thousands of distinct amounts, 8 bytes each) costs more than
   * its delta encoding in a small file and less in a large one (1.89 against 2.96 bytes per reading
   * in files of 90,000 rows, 2.08 against 2.86 in files of 20,000, 3.69 against 3.09 in files of
   * 1,150). Parquet tries the dictionary first and falls back to a delta encoding when it does not
   * pay.
   */
  public static final List<String> SMALL_FILE_DELTA_COLUMNS =
      List.of(StandardColumn.VALUE.columnName());

  /**
   * How MeterStore's writer encodes every data file, whatever properties its table was created
   * with; new tables carry them as properties too, so that a foreign writer (a compaction by Spark)
   * writes the same. Parquet v2 data pages, whose writer falls back from a dictionary to {@code
   * DELTA_BINARY_PACKED} for integers (timestamps, the decimal's unscaled {@code INT64}, dates) and
   * {@code DELTA_BYTE_ARRAY} for strings; DuckDB, Spark, Trino and PyArrow read both.
   */
  public static Map<String, String> encodingProperties() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put(TableProperties.PARQUET_PAGE_VERSION, "v2");
    p.put(TableProperties.PARQUET_PAGE_ROW_LIMIT, Integer.toString(DEFAULT_PAGE_ROWS));
    for (String column : DELTA_COLUMNS) {
      p.put(TableProperties.PARQUET_DICT_ENCODING_ENABLED_COLUMN_PREFIX + column, "false");
    }
    return p;
  }

  /**
   * The most rows of a data page ({@code write.parquet.page-row-limit}), Iceberg's default: what a
   * file of fewer than {@link #SMALL_FILE_ROWS} rows keeps (one page per column; it is read whole
   * in well under a millisecond) and the cap of {@link #pageRows}.
   */
  public static final int MAX_PAGE_ROWS = 20_000;

  /**
   * The fewest rows of a data page. Each page costs about 80 bytes per column (header, compression
   * frame, column and offset index entries): 0.65 bytes per reading at this size over MeterStore's
   * sixteen columns. And Parquet decides from a chunk's first page whether its dictionary pays: a
   * first page of 1,000 rows made {@code value} fall back to delta in files where 20,000 rows kept
   * its dictionary (ParquetFootersIT).
   */
  public static final int MIN_PAGE_ROWS = 2_000;

  /**
   * The page row limit foreign writers get through the table properties (MeterStore's writer sizes
   * each file's pages by {@link #pageRows}): about two locations' month of quarter-hours.
   */
  public static final int DEFAULT_PAGE_ROWS = 6_000;

  /**
   * The page row limit of a file of {@code rows} rows of {@code locations} distinct MaLos: two
   * locations' rows, within {@link #MIN_PAGE_ROWS} and {@link #MAX_PAGE_ROWS}, or {@link
   * #MAX_PAGE_ROWS} for a file of fewer than {@link #SMALL_FILE_ROWS} rows. Pages are what the page
   * indexes (column index, offset index) let a reader skip; a file is sorted by {@code (malo_id,
   * from)}, so a location's rows are contiguous and lie in one or two pages of each column, and a
   * reader that skips pages by location decodes two to four times the rows it returns (a month of
   * quarter-hours, 2,688 to 2,976 rows: pages of about 6,000 rows), while the pages add about 0.2
   * bytes per reading. See docs/adr/0022-page-index-for-point-reads.md.
   *
   * @param rows the file's rows (or an upper estimate), at least 0
   * @param locations the file's distinct MaLos (or an estimate at the same rate), at least 0
   */
  public static int pageRows(long rows, long locations) {
    if (rows < SMALL_FILE_ROWS) {
      return MAX_PAGE_ROWS;
    }
    long perLocation = rows / Math.max(1, locations);
    return (int) Math.max(MIN_PAGE_ROWS, Math.min(MAX_PAGE_ROWS, 2 * perLocation));
  }

  /** Files of fewer rows write {@link #SMALL_FILE_DELTA_COLUMNS} without a dictionary too. */
  public static final long SMALL_FILE_ROWS = 10_000;

  /** The encoding properties of a file of fewer than {@link #SMALL_FILE_ROWS} rows. */
  public static Map<String, String> smallFileEncodingProperties() {
    Map<String, String> p = encodingProperties();
    for (String column : SMALL_FILE_DELTA_COLUMNS) {
      p.put(TableProperties.PARQUET_DICT_ENCODING_ENABLED_COLUMN_PREFIX + column, "false");
    }
    return p;
  }

  /**
   * Manifests a commit lets accumulate before Iceberg merges them into one ({@code
   * commit.manifest.min-count-to-merge}; Iceberg's default is 100). Each late correction, archival
   * window and import commits one manifest, and every plan of the table — a late correction's
   * check, a query's first read of a snapshot — reads each manifest the partition filter keeps:
   * with a hundred, reading them took half of a late correction. Merging every 16 keeps a plan to a
   * few dozen manifests at most, for one small manifest rewrite per 16 commits.
   */
  public static final int MANIFEST_MERGE_COUNT = 16;

  /** The properties a new table gets. */
  public static Map<String, String> properties(TableDefinition table, long targetFileSizeBytes) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put(TableProperties.FORMAT_VERSION, "2");
    p.put(TableProperties.DEFAULT_FILE_FORMAT, "parquet");
    p.put(TableProperties.PARQUET_COMPRESSION, "zstd");
    for (String column : BLOOM_COLUMNS) {
      p.put(TableProperties.PARQUET_BLOOM_FILTER_COLUMN_ENABLED_PREFIX + column, "true");
      p.put(
          TableProperties.PARQUET_BLOOM_FILTER_COLUMN_FPP_PREFIX + column,
          Double.toString(BLOOM_FPP));
    }
    p.putAll(encodingProperties());
    p.put(TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, Long.toString(targetFileSizeBytes));
    p.put(TableProperties.MANIFEST_MIN_MERGE_COUNT, Integer.toString(MANIFEST_MERGE_COUNT));
    p.putAll(maintenanceProperties(table));
    p.put(SummaryKeys.TABLE_ARCHIVAL_STEP, table.policy().archivalStep().toString());
    return p;
  }

  /**
   * Properties MeterStore's commit protocol and expiry depend on: no library commit retry (it would
   * re-apply an archival commit without re-checking W), and {@code history.expire.*} set so that a
   * foreign expire by age alone removes nothing. Old metadata files are pruned after commits.
   */
  public static Map<String, String> maintenanceProperties(TableDefinition table) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put(TableProperties.COMMIT_NUM_RETRIES, "0");
    p.put(TableProperties.MAX_SNAPSHOT_AGE_MS, Long.toString(Long.MAX_VALUE));
    p.put(
        TableProperties.MIN_SNAPSHOTS_TO_KEEP,
        Integer.toString(table.policy().minSnapshotsToKeep()));
    p.put(TableProperties.MAX_REF_AGE_MS, Long.toString(Long.MAX_VALUE));
    p.put(TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED, "true");
    p.put(TableProperties.METADATA_PREVIOUS_VERSIONS_MAX, "100");
    return p;
  }

  /**
   * Refuses an existing table whose format version, partition spec or sort order differs from the
   * layout {@code table} derives.
   *
   * @throws MeterStoreException {@code CONFIG} naming the table and each difference
   */
  public static void verify(TableDefinition table, Table existing, int formatVersion) {
    List<String> differences = new ArrayList<>();
    if (formatVersion < 2) {
      differences.add("format version " + formatVersion + ", expected 2");
    }
    Schema schema = existing.schema();
    String expectedSpec = describe(spec(table, schema), schema);
    String actualSpec = describe(existing.spec(), schema);
    if (!expectedSpec.equals(actualSpec)) {
      differences.add("partition spec " + actualSpec + ", expected " + expectedSpec);
    }
    String expectedOrder = describe(sortOrder(schema), schema);
    String actualOrder = describe(existing.sortOrder(), schema);
    if (!expectedOrder.equals(actualOrder)) {
      differences.add("sort order " + actualOrder + ", expected " + expectedOrder);
    }
    if (!differences.isEmpty()) {
      throw new MeterStoreException(
          ErrorKind.CONFIG,
          "Cannot use cold table "
              + table.name()
              + ": its layout disagrees with the configuration ("
              + String.join("; ", differences)
              + ")");
    }
  }

  static String describe(PartitionSpec spec, Schema schema) {
    List<String> parts = new ArrayList<>();
    for (PartitionField f : spec.fields()) {
      parts.add(f.transform().toString() + "(" + schema.findColumnName(f.sourceId()) + ")");
    }
    return parts.toString();
  }

  static String describe(SortOrder order, Schema schema) {
    List<String> parts = new ArrayList<>();
    for (SortField f : order.fields()) {
      String source = schema.findColumnName(f.sourceId());
      String name = f.transform().isIdentity() ? source : f.transform() + "(" + source + ")";
      parts.add(
          name
              + " "
              + f.direction().toString().toLowerCase(Locale.ROOT)
              + " "
              + f.nullOrder().toString().toLowerCase(Locale.ROOT));
    }
    return parts.toString();
  }
}
