package org.meterstore.cold.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;

/** What the footer cache keeps, what it evicts and how often a footer is read. */
class FooterCacheTest {
  private static final MessageType SCHEMA =
      Types.buildMessage().required(PrimitiveTypeName.INT64).named("from").named("readings");

  /** A footer's estimated weight: the cache below holds two. */
  private static final long ONE = FooterCache.estimate(footer());

  private final AtomicInteger loads = new AtomicInteger();

  @Test
  void aFileIsReadOnceThenServedFromTheCache() throws IOException {
    FooterCache cache = new FooterCache(10 * ONE);
    CachedFile first = cache.file("a.parquet", 100, this::load);
    CachedFile again = cache.file("a.parquet", 100, this::load);
    assertThat(again).isSameAs(first);
    assertThat(loads).hasValue(1);
    assertThat(cache.hits()).isEqualTo(1);
    assertThat(cache.misses()).isEqualTo(1);
    assertThat(cache.estimatedBytes()).isEqualTo(ONE);
    // the same path with another length is another file
    assertThat(cache.file("a.parquet", 101, this::load)).isNotSameAs(first);
    assertThat(loads).hasValue(2);
  }

  @Test
  void theOldestFileNotUsedSinceGoesFirst() throws IOException {
    FooterCache cache = new FooterCache(2 * ONE);
    cache.file("a", 1, this::load);
    cache.file("b", 1, this::load);
    cache.file("a", 1, this::load); // a used again: b is the one to go
    cache.file("c", 1, this::load);
    assertThat(cache.size()).isEqualTo(2);
    assertThat(cache.estimatedBytes()).isEqualTo(2 * ONE);
    int before = loads.get();
    cache.file("a", 1, this::load);
    cache.file("c", 1, this::load);
    assertThat(loads).hasValue(before);
    cache.file("b", 1, this::load);
    assertThat(loads).hasValue(before + 1);
  }

  @Test
  void everyFileUsedStillEvictsWithinTheBound() throws IOException {
    FooterCache cache = new FooterCache(3 * ONE);
    for (int i = 0; i < 50; i++) {
      cache.file("f" + i, 1, this::load);
      cache.file("f" + i, 1, this::load);
      assertThat(cache.estimatedBytes()).isLessThanOrEqualTo(3 * ONE);
    }
    assertThat(cache.size()).isEqualTo(3);
  }

  @Test
  void aDisabledCacheReadsEveryTimeAndHoldsNothing() throws IOException {
    FooterCache cache = FooterCache.disabled();
    cache.file("a", 1, this::load);
    cache.file("a", 1, this::load);
    assertThat(loads).hasValue(2);
    assertThat(cache.size()).isZero();
    assertThat(cache.estimatedBytes()).isZero();
    assertThatThrownBy(() -> new FooterCache(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 0");
  }

  @Test
  void concurrentReadersOfFewerFilesThanFitKeepEachOnce() throws Exception {
    FooterCache cache = new FooterCache(8 * ONE);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        done.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 2_000; i++) {
                    cache.file("f" + (i % 6), 1, this::load);
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(cache.size()).isEqualTo(6);
    assertThat(cache.estimatedBytes()).isEqualTo(6 * ONE);
    assertThat(cache.hits() + cache.misses()).isEqualTo(16_000);
    assertThat(cache.misses()).isEqualTo(loads.get()).isLessThan(6 * 8 + 1);
  }

  private ParquetMetadata load() {
    loads.incrementAndGet();
    return footer();
  }

  private static ParquetMetadata footer() {
    return new ParquetMetadata(new FileMetaData(SCHEMA, Map.of(), "test"), List.of());
  }
}
