package org.meterstore.cold.internal.commit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.StandardColumn;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.internal.layout.RowConverter;
import org.meterstore.cold.internal.layout.TableLayout;

/**
 * Whether a stored row could decide a window imported at W, told from the files added since the
 * last full look ({@link StoredReach}): every answer equals a full plan of the table, and a file
 * added after the memo that reaches the batch (a span crossing W, a row at W) is seen.
 */
class StoredReachTest {
  private static final TableDefinition TABLE = TableDefinition.interval("reach");
  private static final Instant W = Instant.parse("2026-03-10T00:00:00Z");

  private InMemoryCatalog catalog;
  private Table table;
  private final AtomicInteger files = new AtomicInteger();

  @BeforeEach
  void open() {
    catalog = new InMemoryCatalog();
    catalog.initialize("t", Map.of());
    catalog.createNamespace(Namespace.of("ns"));
    table =
        catalog.createTable(
            TableIdentifier.of("ns", TABLE.name()), TableLayout.schema(TABLE), null, Map.of());
  }

  @AfterEach
  void close() throws Exception {
    catalog.close();
  }

  @Test
  void aFileAddedAfterTheMemoThatCrossesWIsSeen() {
    StoredReach memo = new StoredReach();
    BatchClassification batch = classification();
    append(W.minus(Duration.ofDays(1)), W.minus(Duration.ofMinutes(15)), W);
    assertThat(batch.storedCanDecide(table, batchFrom(W), memo)).isFalse(); // full plan, memo set
    append(W, W.plus(Duration.ofMinutes(15)), W.plus(Duration.ofMinutes(30))); // our own window
    assertThat(batch.storedCanDecide(table, batchFrom(W.plus(Duration.ofHours(1))), memo))
        .isFalse(); // from the added file alone
    // a correction below W whose span (a balancing day) reaches past the next batch's start
    append(
        W.minus(Duration.ofHours(1)), W.minus(Duration.ofHours(1)), W.plus(Duration.ofHours(23)));
    assertThat(batch.storedCanDecide(table, batchFrom(W.plus(Duration.ofHours(2))), memo)).isTrue();
    assertThat(fullPlan(W.plus(Duration.ofHours(2)))).isTrue();
  }

  @Test
  void aRowAtTheBatchsStartAddedAfterTheMemoIsSeen() {
    StoredReach memo = new StoredReach();
    BatchClassification batch = classification();
    assertThat(batch.storedCanDecide(table, batchFrom(W), memo)).isFalse(); // nothing stored
    append(W.minus(Duration.ofDays(2)), W.minus(Duration.ofDays(2)), W.minus(Duration.ofDays(1)));
    assertThat(batch.storedCanDecide(table, batchFrom(W), memo)).isFalse();
    append(W.plus(Duration.ofHours(3)), W.plus(Duration.ofHours(3)), null);
    assertThat(batch.storedCanDecide(table, batchFrom(W.plus(Duration.ofHours(1))), memo)).isTrue();
  }

  @Test
  void anEarlierBatchOrAnUnknownSnapshotPlansTheTableAgain() {
    StoredReach memo = new StoredReach();
    BatchClassification batch = classification();
    append(W.minus(Duration.ofDays(1)), W.minus(Duration.ofMinutes(15)), W);
    assertThat(batch.storedCanDecide(table, batchFrom(W.plus(Duration.ofDays(1))), memo)).isFalse();
    // the memo was for batches from W + 1 day: one starting earlier is not answered from it
    assertThat(memo.reaches(table, W, reachingFrom(W))).isNull();
    assertThat(batch.storedCanDecide(table, batchFrom(W.minus(Duration.ofMinutes(15))), memo))
        .isTrue();
    // a memo of another table's snapshot (not among this one's ancestors) answers nothing
    StoredReach other = new StoredReach();
    other.nothingReaches(table, W);
    Table second =
        catalog.createTable(
            TableIdentifier.of("ns", "second"), TableLayout.schema(TABLE), null, Map.of());
    second
        .newAppend()
        .appendFile(
            file(second.spec(), W.minus(Duration.ofDays(3)), W.minus(Duration.ofDays(3)), null))
        .commit();
    assertThat(other.reaches(second, W, reachingFrom(W))).isNull();
  }

  @Test
  void everyAnswerEqualsAFullPlan() {
    StoredReach memo = new StoredReach();
    BatchClassification batch = classification();
    java.util.Random random = new java.util.Random(5);
    Instant start = W;
    for (int i = 0; i < 60; i++) {
      start = start.plus(Duration.ofMinutes(15L * random.nextInt(8)));
      boolean expected = fullPlan(start);
      assertThat(batch.storedCanDecide(table, batchFrom(start), memo))
          .as("batch %d from %s", i, start)
          .isEqualTo(expected);
      Instant from = start.plus(Duration.ofMinutes(15L * (random.nextInt(12) - 8)));
      Instant to =
          random.nextInt(4) == 0
              ? null
              : from.plus(Duration.ofMinutes(15L * (1 + random.nextInt(16))));
      append(from, from, to);
    }
  }

  private BatchClassification classification() {
    return new BatchClassification(
        new DuplicateCheck(TABLE, new RowConverter(TABLE, table.schema()), null));
  }

  private boolean fullPlan(Instant min) {
    try (var tasks = table.newScan().filter(reachingFrom(min)).planFiles()) {
      return tasks.iterator().hasNext();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The filter {@link BatchClassification#storedCanDecide} asks for a batch starting at min. */
  private static org.apache.iceberg.expressions.Expression reachingFrom(Instant min) {
    String from = StandardColumn.FROM.columnName();
    return org.apache.iceberg.expressions.Expressions.or(
        org.apache.iceberg.expressions.Expressions.greaterThanOrEqual(
            from, DuplicateCheck.micros(min)),
        org.apache.iceberg.expressions.Expressions.and(
            org.apache.iceberg.expressions.Expressions.greaterThanOrEqual(
                from, DuplicateCheck.micros(min.minus(DuplicateCheck.LONGEST_SPAN))),
            org.apache.iceberg.expressions.Expressions.or(
                org.apache.iceberg.expressions.Expressions.isNull(StandardColumn.TO.columnName()),
                org.apache.iceberg.expressions.Expressions.greaterThan(
                    StandardColumn.TO.columnName(), DuplicateCheck.micros(min)))));
  }

  private static List<Object[]> batchFrom(Instant from) {
    Reading r =
        Reading.builder()
            .malo("51238696781")
            .obis("1-0:1.8.0")
            .commodity(Commodity.STROM)
            .interval(from, Resolution.PT15M)
            .value("1")
            .operator("9900000000003")
            .version("20260315000000")
            .build();
    return List.<Object[]>of(StoredRow.of(TABLE, StoredReading.accept(r, from)));
  }

  /**
   * Appends one data file whose rows' from lies in [minFrom, maxFrom] and whose to ends by maxTo.
   */
  private void append(Instant minFrom, Instant maxFrom, Instant maxTo) {
    table.newAppend().appendFile(file(table.spec(), minFrom, maxFrom, maxTo)).commit();
  }

  private DataFile file(PartitionSpec spec, Instant minFrom, Instant maxFrom, Instant maxTo) {
    int fromId = table.schema().findField(StandardColumn.FROM.columnName()).fieldId();
    int toId = table.schema().findField(StandardColumn.TO.columnName()).fieldId();
    Map<Integer, ByteBuffer> lower =
        maxTo == null
            ? Map.of(fromId, micros(minFrom))
            : Map.of(fromId, micros(minFrom), toId, micros(minFrom.plusSeconds(900)));
    Map<Integer, ByteBuffer> upper =
        maxTo == null
            ? Map.of(fromId, micros(maxFrom))
            : Map.of(fromId, micros(maxFrom), toId, micros(maxTo));
    Map<Integer, Long> nulls = Map.of(fromId, 0L, toId, maxTo == null ? 1L : 0L);
    return DataFiles.builder(spec)
        .withPath("/tmp/reach-" + files.incrementAndGet() + ".parquet")
        .withFileSizeInBytes(1_000)
        .withRecordCount(1)
        .withMetrics(new Metrics(1L, null, Map.of(fromId, 1L, toId, 1L), nulls, null, lower, upper))
        .build();
  }

  private static ByteBuffer micros(Instant at) {
    return Conversions.toByteBuffer(Types.TimestampType.withZone(), DuplicateCheck.micros(at));
  }
}
