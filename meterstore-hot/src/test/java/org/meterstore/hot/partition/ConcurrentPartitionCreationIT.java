package org.meterstore.hot.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.hot.Fixtures.NOW;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.Fixtures;
import org.meterstore.hot.HotStore;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * Two stores (two caches, two connection sets: as two processes would be) creating the same
 * partitions at the same moment serialise on the table's advisory lock: each partition is created
 * exactly once, and neither sees an error.
 */
@ExtendWith(PostgresExtension.class)
class ConcurrentPartitionCreationIT {
  private static final TableDefinition TABLE = TableDefinition.interval("lastgang");
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private static HotStore first;
  private static HotStore second;
  private static ExecutorService threads;

  @BeforeAll
  static void open(TestDatabase db) {
    first = Fixtures.store(db, "meterstore", Duration.ofSeconds(10));
    second = Fixtures.store(db, "meterstore", Duration.ofSeconds(10));
    first.createTables(List.of(TABLE), NOW);
    threads = Executors.newFixedThreadPool(2);
  }

  @AfterAll
  static void close() {
    threads.shutdownNow();
    first.close();
    second.close();
  }

  @RepeatedTest(3)
  void twoCreatorsCreateEachPartitionExactlyOnce(RepetitionInfo repetition) throws Exception {
    Instant from =
        Instant.parse("2027-01-01T00:00:00Z")
            .plus(Duration.ofDays(30L * repetition.getCurrentRepetition()));
    Instant to = from.plus(Duration.ofDays(8));
    CyclicBarrier start = new CyclicBarrier(2);
    Future<List<PartitionInfo>> a =
        threads.submit(
            () -> {
              start.await();
              return first.partitions().ensure(TABLE, from, to);
            });
    Future<List<PartitionInfo>> b =
        threads.submit(
            () -> {
              start.await();
              return second.partitions().ensure(TABLE, from, to);
            });
    List<PartitionInfo> byFirst = a.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    List<PartitionInfo> bySecond = b.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);

    Set<String> created = new HashSet<>();
    byFirst.forEach(p -> assertThat(created.add(p.name())).as("created twice: %s", p).isTrue());
    bySecond.forEach(p -> assertThat(created.add(p.name())).as("created twice: %s", p).isTrue());
    List<String> expected = new ArrayList<>();
    for (Instant d = from; d.isBefore(to); d = d.plus(Duration.ofDays(1))) {
      expected.add(TABLE.name() + "_" + d.toString().substring(0, 10).replace('-', '_') + "_0000");
    }
    assertThat(created).containsExactlyInAnyOrderElementsOf(expected);
    List<String> attached =
        first.partitions().list(TABLE).stream()
            .filter(p -> !p.lowerBound().isBefore(from) && p.lowerBound().isBefore(to))
            .map(PartitionInfo::name)
            .toList();
    assertThat(attached).containsExactlyElementsOf(expected);
  }

  @Test
  void twoWritersReachingTheSameNewDaysBothSucceed() throws Exception {
    Instant day = Instant.parse("2027-06-01T00:00:00Z");
    CyclicBarrier start = new CyclicBarrier(2);
    Future<List<WriteResult>> a = threads.submit(() -> writeDays(first, start, 1, day));
    Future<List<WriteResult>> b = threads.submit(() -> writeDays(second, start, 2, day));
    for (WriteResult r : a.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      assertThat(r.stored()).isEqualTo(96);
    }
    for (WriteResult r : b.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      assertThat(r.stored()).isEqualTo(96);
    }
    long partitions =
        first.partitions().list(TABLE).stream()
            .filter(
                p ->
                    !p.lowerBound().isBefore(day)
                        && p.lowerBound().isBefore(day.plus(Duration.ofDays(5))))
            .count();
    assertThat(partitions).isEqualTo(5);
  }

  private static List<WriteResult> writeDays(
      HotStore store, CyclicBarrier start, int meter, Instant day) throws Exception {
    start.await();
    List<WriteResult> results = new ArrayList<>();
    for (int d = 0; d < 5; d++) {
      List<Reading> readings = Fixtures.day(meter, day.plus(Duration.ofDays(d)), "20270601000000");
      results.add(store.write(TABLE, readings, NOW));
    }
    return results;
  }
}
