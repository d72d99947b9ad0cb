package org.meterstore.maintenance.archival;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

/** The read-ahead hand-off between the hot source and the cold writer, without a database. */
class PrefetchedRowsTest {
  private static final String NAME = "meterstore-archival-reader-test";

  /** A source of {@code rows} rows in chunks of {@code chunk}, calling back between chunks. */
  private static Iterable<Object[]> source(int rows, int chunk, IntConsumer between) {
    return () ->
        new Iterator<>() {
          private int next;

          @Override
          public boolean hasNext() {
            if (next > 0 && next < rows && next % chunk == 0) {
              between.accept(next / chunk);
            }
            return next < rows;
          }

          @Override
          public Object[] next() {
            if (next >= rows) {
              throw new NoSuchElementException();
            }
            return new Object[] {next++};
          }
        };
  }

  @ParameterizedTest
  @CsvSource({"0, 5", "1, 5", "5000, 1000", "5001, 1000", "3000, 7", "20000, 50000"})
  void everyRowArrivesInOrderAndBoundariesRunOnTheConsumingThreadBetweenTheirChunks(
      int rows, int chunk) {
    List<String> seen = new ArrayList<>();
    Thread consumer = Thread.currentThread();
    AtomicReference<Thread> hookThread = new AtomicReference<>(consumer);
    try (PrefetchedRows prefetched =
        new PrefetchedRows(
            between -> source(rows, chunk, between),
            chunk,
            n -> {
              if (Thread.currentThread() != consumer) {
                hookThread.set(Thread.currentThread());
              }
              seen.add("chunk " + n);
            },
            NAME)) {
      for (int pass = 0; pass < 2; pass++) {
        seen.clear();
        for (Object[] row : prefetched) {
          seen.add(String.valueOf(row[0]));
        }
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
          if (i > 0 && i % chunk == 0) {
            expected.add("chunk " + (i / chunk));
          }
          expected.add(String.valueOf(i));
        }
        assertThat(seen).isEqualTo(expected);
      }
    }
    assertThat(hookThread.get()).isSameAs(consumer);
    assertThat(readerThreads()).isEmpty();
  }

  @Test
  void aFailureOfTheSourceIsRethrownUnchangedOnTheConsumingThread() {
    MeterStoreException failure = new MeterStoreException(ErrorKind.STORAGE, "gone");
    Iterable<Object[]> failing =
        () ->
            new Iterator<>() {
              private int n;

              @Override
              public boolean hasNext() {
                if (n == 3000) {
                  throw failure;
                }
                return true;
              }

              @Override
              public Object[] next() {
                return new Object[] {n++};
              }
            };
    try (PrefetchedRows prefetched = new PrefetchedRows(between -> failing, 1000, n -> {}, NAME)) {
      Iterator<Object[]> it = prefetched.iterator();
      assertThatThrownBy(
              () -> {
                while (it.hasNext()) {
                  it.next();
                }
              })
          .isSameAs(failure);
    }
    assertThat(readerThreads()).isEmpty();
  }

  @Test
  void aHookThatThrowsAbortsAndCloseJoinsAWorkerBlockedOnAFullQueue() {
    RuntimeException crash = new IllegalStateException("crash here");
    PrefetchedRows prefetched =
        new PrefetchedRows(
            between -> source(1_000_000, 2048, between),
            2048,
            n -> {
              throw crash;
            },
            NAME);
    Iterator<Object[]> it = prefetched.iterator();
    assertThatThrownBy(
            () -> {
              while (it.hasNext()) {
                it.next();
              }
            })
        .isSameAs(crash);
    // The worker has filled the queue and waits; close stops it and returns only once it ended.
    Iterator<Object[]> abandoned = prefetched.iterator();
    assertThat(abandoned.hasNext()).isTrue();
    prefetched.close();
    assertThat(readerThreads()).isEmpty();
  }

  private static List<Thread> readerThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().equals(NAME) && t.isAlive())
        .toList();
  }
}
