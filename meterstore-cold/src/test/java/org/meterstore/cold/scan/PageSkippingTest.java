package org.meterstore.cold.scan;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Row-range decoding on a real file of a month of 300 locations in one row group: a read filtered
 * by location (and time) returns the rows an unfiltered read returns for it, decoding a small
 * multiple of them; filters the page indexes cannot answer read every row.
 */
class PageSkippingTest {
  @TempDir static Path dir;
  private static LocationsFile data;
  private static List<List<Object>> everything;

  @BeforeAll
  static void write() {
    data = new LocationsFile(dir);
    LocationsFile.Read all = data.read(Expressions.alwaysTrue(), FooterCache.disabled());
    everything = all.rows();
    assertThat(everything).hasSize(LocationsFile.rows().size());
    assertThat(all.decoded()).isEqualTo(everything.size());
  }

  private static List<List<Object>> matching(
      List<List<Object>> rows, Predicate<List<Object>> filter) {
    return rows.stream().filter(filter).toList();
  }

  private static Predicate<List<Object>> malo(String... malos) {
    Set<String> set = Set.of(malos);
    return row -> set.contains((String) row.get(0));
  }

  private static long micros(Instant t) {
    return t.toEpochMilli() * 1000;
  }

  @Test
  void oneLocationsRowsDecodeASmallMultipleOfThemselves() {
    String malo = LocationsFile.malo(157);

    LocationsFile.Read read = data.read(Expressions.equal("malo_id", malo), FooterCache.disabled());

    List<List<Object>> expected = matching(everything, malo(malo));
    assertThat(expected).hasSize(LocationsFile.HOURS);
    assertThat(matching(read.rows(), malo(malo))).isEqualTo(expected);
    // pages hold two locations' rows: the location's rows lie in one or two of them
    assertThat(read.decoded()).isLessThanOrEqualTo(6L * expected.size());
    assertThat(read.returned()).isLessThanOrEqualTo(read.decoded());
  }

  @Test
  void everyLocationReadAloneGivesBackTheWholeFile() {
    FooterCache cache = new FooterCache(FooterCache.DEFAULT_MAX_BYTES);
    List<List<Object>> joined = new ArrayList<>();
    long decoded = 0;
    for (int m = 0; m < LocationsFile.LOCATIONS; m++) {
      String malo = LocationsFile.malo(m);
      LocationsFile.Read read = data.read(Expressions.equal("malo_id", malo), cache);
      joined.addAll(matching(read.rows(), malo(malo)));
      decoded += read.decoded();
    }

    assertThat(joined).isEqualTo(everything);
    assertThat(decoded).isLessThanOrEqualTo(6L * everything.size());
    assertThat(cache.misses()).isEqualTo(1);
    assertThat(cache.hits()).isEqualTo(LocationsFile.LOCATIONS - 1);
  }

  @Test
  void locationsInAListWithinHoursReadTheirRowsOnly() {
    String a = LocationsFile.malo(3);
    String b = LocationsFile.malo(250);
    Instant from = LocationsFile.MONTH.plus(Duration.ofDays(9).plusHours(6));
    Instant to = from.plus(Duration.ofHours(6));
    Expression filter =
        Expressions.and(
            Expressions.in("malo_id", a, b),
            Expressions.and(
                Expressions.greaterThanOrEqual("from", micros(from)),
                Expressions.lessThan("from", micros(to))));

    LocationsFile.Read read = data.read(filter, FooterCache.disabled());

    Predicate<List<Object>> exact =
        malo(a, b).and(row -> (Long) row.get(4) >= micros(from) && (Long) row.get(4) < micros(to));
    List<List<Object>> expected = matching(everything, exact);
    assertThat(expected).hasSize(6 + 2 * 6);
    assertThat(matching(read.rows(), exact)).isEqualTo(expected);
    // the hours narrow nothing: every page of "from" spans them; the locations' pages are read
    assertThat(read.decoded()).isLessThanOrEqualTo(4L * matching(everything, malo(a, b)).size());
  }

  @Test
  void aFilterThePageIndexesCannotAnswerReadsEveryRow() {
    Expression filter =
        Expressions.or(
            Expressions.equal("malo_id", LocationsFile.malo(9)),
            Expressions.greaterThan("value", new java.math.BigDecimal("12.5")));

    LocationsFile.Read read = data.read(filter, FooterCache.disabled());

    assertThat(read.rows()).isEqualTo(everything);
    assertThat(read.decoded()).isEqualTo(everything.size());
  }

  @Test
  void aLocationTheFileDoesNotHoldSkipsTheRowGroup() {
    // even numbers lie between the file's MaLos: inside its bounds, in no page or dictionary
    String absent = String.format("5%010d", 314);

    LocationsFile.Read read =
        data.read(Expressions.equal("malo_id", absent), FooterCache.disabled());

    assertThat(read.rows()).isEmpty();
    assertThat(read.decoded()).isZero();
  }

  @Test
  void theFileCarriesPageIndexesWithPagesOfTwoLocationsRowsEndingAtDifferentRows()
      throws IOException {
    try (ParquetFileReader reader =
        ParquetFileReader.open(new LocalInputFile(Path.of(java.net.URI.create(location()))))) {
      assertThat(reader.getRowGroups()).hasSize(1);
      BlockMetaData block = reader.getRowGroups().get(0);
      long pageRows =
          org.meterstore.cold.internal.layout.TableLayout.pageRows(
              block.getRowCount(), LocationsFile.LOCATIONS);
      assertThat(pageRows).isBetween(1_000L, 2_000L);
      Set<TreeSet<Long>> boundaries = new HashSet<>();
      for (ColumnChunkMetaData chunk : block.getColumns()) {
        assertThat(reader.readColumnIndex(chunk)).as(chunk.getPath().toDotString()).isNotNull();
        OffsetIndex offsets = reader.readOffsetIndex(chunk);
        assertThat(offsets).as(chunk.getPath().toDotString()).isNotNull();
        TreeSet<Long> firstRows = new TreeSet<>();
        long largest = 0;
        for (int p = 0; p < offsets.getPageCount(); p++) {
          firstRows.add(offsets.getFirstRowIndex(p));
          largest =
              Math.max(
                  largest,
                  offsets.getLastRowIndex(p, block.getRowCount())
                      + 1
                      - offsets.getFirstRowIndex(p));
        }
        assertThat(largest).as(chunk.getPath().toDotString()).isLessThanOrEqualTo(pageRows);
        assertThat(offsets.getPageCount()).isGreaterThan(100);
        boundaries.add(firstRows);
      }
      assertThat(boundaries).hasSizeGreaterThan(1);
    }
  }

  private static String location() {
    String location = data.file.location();
    return location.startsWith("file:") ? location : "file://" + location;
  }

  @Test
  void aCacheTooSmallForAFooterKeepsNone() {
    FooterCache cache = new FooterCache(1);
    String malo = LocationsFile.malo(42);

    data.read(Expressions.equal("malo_id", malo), cache);
    data.read(Expressions.equal("malo_id", malo), cache);

    assertThat(cache.size()).isZero();
    assertThat(cache.misses()).isEqualTo(2);
    assertThat(cache.estimatedBytes()).isZero();
  }

  @Test
  void aCacheKeepsAFootersAndItsPageIndexesBytes() {
    FooterCache cache = new FooterCache(FooterCache.DEFAULT_MAX_BYTES);

    data.read(Expressions.alwaysTrue(), cache);
    long footerOnly = cache.estimatedBytes();
    data.read(Expressions.equal("malo_id", LocationsFile.malo(42)), cache);

    assertThat(cache.size()).isEqualTo(1);
    assertThat(footerOnly).isPositive();
    assertThat(cache.estimatedBytes()).isGreaterThan(footerOnly);
  }
}
