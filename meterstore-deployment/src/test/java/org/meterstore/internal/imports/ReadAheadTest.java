package org.meterstore.internal.imports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.commodity.Unit;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.imports.ImportCursor;

/** The writing pass's read-ahead: order, the end, a failure in place, and a close that stops it. */
class ReadAheadTest {
  private static final Instant START = Instant.parse("2026-03-02T00:00:00Z");
  private static final int BLOCKS = 4;

  /** {@code count} readings, then the end or {@code failure}; counts what it was asked for. */
  private static final class Cursor implements ImportCursor {
    private final int count;
    private final RuntimeException failure;
    final AtomicInteger read = new AtomicInteger();
    volatile boolean closed;

    Cursor(int count, RuntimeException failure) {
      this.count = count;
      this.failure = failure;
    }

    @Override
    public StoredReading next() {
      int i = read.getAndIncrement();
      if (i < count) {
        return reading(i);
      }
      if (failure != null) {
        throw failure;
      }
      return null;
    }

    @Override
    public long position() {
      return read.get();
    }

    @Override
    public void close() {
      closed = true;
    }
  }

  private static StoredReading reading(int i) {
    Reading r =
        Reading.builder()
            .malo("51238696781")
            .obis("1-0:1.8.0")
            .commodity(Commodity.STROM)
            .unit(Unit.KWH)
            .interval(START.plus(Duration.ofMinutes(15L * i)), Resolution.PT15M)
            .value("0.25")
            .operator("9900000000003")
            .version("20260330120000")
            .build();
    return StoredReading.accept(r, START);
  }

  /** The reading's row, as the reader thread makes it: here just its {@code from}. */
  private static Object[] row(StoredReading r) {
    return new Object[] {r.reading().from()};
  }

  private static ReadAhead ahead(Cursor cursor, int blockRows) {
    return new ReadAhead(cursor, ReadAheadTest::row, 0, blockRows, BLOCKS, "t");
  }

  @Test
  void everyReadingArrivesInOrderThenTheEnd() {
    int count = ReadAhead.BLOCK * 3 + 17;
    try (ReadAhead ahead = ahead(new Cursor(count, null), ReadAhead.BLOCK)) {
      List<Instant> froms = new ArrayList<>();
      for (ReadAhead.Block b = ahead.next(); b != null; b = ahead.next()) {
        assertThat(b.rows()).isNotEmpty().hasSizeLessThanOrEqualTo(ReadAhead.BLOCK);
        for (Object[] r : b.rows()) {
          Instant from = (Instant) r[0];
          assertThat(from).isBetween(b.min(), b.max());
          froms.add(from);
        }
        assertThat(b.min()).isEqualTo(b.rows().get(0)[0]);
        assertThat(b.max()).isEqualTo(b.rows().get(b.rows().size() - 1)[0]);
      }
      assertThat(froms).hasSize(count);
      for (int i = 0; i < count; i++) {
        assertThat(froms.get(i)).isEqualTo(START.plus(Duration.ofMinutes(15L * i)));
      }
      assertThat(ahead.next()).isNull();
    }
  }

  @Test
  void blocksHoldTheRowsAskedFor() {
    try (ReadAhead ahead = ahead(new Cursor(25, null), 10)) {
      assertThat(ahead.next().rows()).hasSize(10);
      assertThat(ahead.next().rows()).hasSize(10);
      assertThat(ahead.next().rows()).hasSize(5);
      assertThat(ahead.next()).isNull();
    }
  }

  @Test
  void aFailureArrivesAfterEveryReadingBeforeIt() {
    MeterStoreException bad = MeterStoreException.invalid("value", "x", "a decimal");
    try (ReadAhead ahead = ahead(new Cursor(ReadAhead.BLOCK + 5, bad), ReadAhead.BLOCK)) {
      assertThat(ahead.next().rows()).hasSize(ReadAhead.BLOCK);
      assertThat(ahead.next().rows()).hasSize(5);
      assertThatThrownBy(ahead::next).isSameAs(bad);
    }
  }

  @Test
  void closeStopsAReaderThatIsWaitingForRoom() throws Exception {
    Cursor cursor = new Cursor(Integer.MAX_VALUE, null);
    ReadAhead ahead = ahead(cursor, ReadAhead.BLOCK);
    assertThat(ahead.next()).isNotNull();
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (cursor.read.get() < ReadAhead.BLOCK * BLOCKS && System.nanoTime() < deadline) {
      Thread.sleep(5); // the reader fills its blocks, then waits for room
    }
    ahead.close();
    int read = cursor.read.get();
    Thread.sleep(50);
    assertThat(cursor.read.get()).isEqualTo(read); // stopped: nothing more is read
    assertThat(read).isLessThanOrEqualTo(ReadAhead.BLOCK * (BLOCKS + 3));
  }
}
