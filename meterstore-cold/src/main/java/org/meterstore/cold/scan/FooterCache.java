package org.meterstore.cold.scan;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * Parsed Parquet footers of data files, with the column and offset indexes read for page skipping,
 * so that a file's metadata is read from the object store and parsed once, not once per query.
 * Keyed by file location and length: MeterStore's data files are immutable (Iceberg never rewrites
 * a path), and the length guards against a path reused for other content.
 *
 * <p>Bounded by an estimate of the heap the parsed metadata takes ({@link #estimatedBytes()}): a
 * footer counts about 600 bytes per column chunk plus its key-value metadata, a page index about
 * its minimum and maximum values plus 40 bytes per page. When the total exceeds the bound, files
 * are evicted in second-chance order (the oldest first, unless it was used since it was last passed
 * over); a file whose metadata alone exceeds the bound is read but not kept. A bound of 0 keeps
 * nothing (every open reads its footer, as without a cache).
 *
 * <p>Thread-safe: one cache serves every reader of a store, and a hit takes no lock (a hit under a
 * lock, as a least-recently-used order needs, queued sixteen concurrent point reads behind each
 * other); loading and eviction take one. A file loaded by two threads at once is read twice and
 * kept once. Holds no file handle.
 */
public final class FooterCache {
  /** The default bound: 64 MiB of parsed metadata, about 20,000 footers of MeterStore's files. */
  public static final long DEFAULT_MAX_BYTES = 64L * 1024 * 1024;

  private final long maxBytes;
  private final ConcurrentHashMap<Key, CachedFile> files = new ConcurrentHashMap<>();
  private final ArrayDeque<CachedFile> clock = new ArrayDeque<>(); // guarded by this
  private long bytes; // guarded by this
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();

  /**
   * A cache of at most {@code maxBytes} estimated bytes.
   *
   * @param maxBytes the bound in bytes, at least 0 (0 keeps nothing)
   * @throws IllegalArgumentException for a negative bound
   */
  public FooterCache(long maxBytes) {
    if (maxBytes < 0) {
      throw new IllegalArgumentException(
          "Invalid maxBytes: " + maxBytes + " (at least 0; 0 keeps nothing)");
    }
    this.maxBytes = maxBytes;
  }

  /** A cache that keeps nothing. */
  public static FooterCache disabled() {
    return new FooterCache(0);
  }

  /** Reads a file's footer on a miss. */
  @FunctionalInterface
  interface Loader {
    ParquetMetadata load() throws IOException;
  }

  /** A file: its location and length in bytes. */
  record Key(String location, long length) {}

  /** The cached metadata of the file at {@code location} of {@code length} bytes, loaded once. */
  CachedFile file(String location, long length, Loader loader) throws IOException {
    Key key = new Key(location, length);
    CachedFile cached = files.get(key);
    if (cached != null) {
      hits.increment();
      cached.used();
      return cached;
    }
    misses.increment();
    ParquetMetadata footer = loader.load();
    CachedFile loaded = new CachedFile(this, key, footer, estimate(footer));
    synchronized (this) {
      CachedFile raced = files.get(key);
      if (raced != null) {
        return raced;
      }
      if (loaded.weight() <= maxBytes) {
        files.put(key, loaded);
        clock.addLast(loaded);
        bytes += loaded.weight();
        evict();
      }
    }
    return loaded;
  }

  /** Accounts {@code delta} more bytes to {@code file} (a page index it loaded), if it is kept. */
  synchronized void grew(CachedFile file, long delta) {
    file.addWeight(delta);
    if (files.get(file.key()) == file) {
      bytes += delta;
      evict();
    }
  }

  /**
   * Evicts until the total is within the bound: the oldest file goes unless it was used since it
   * was last passed over, then it goes to the back once. Two rounds at most, even while hits keep
   * marking files.
   */
  private void evict() {
    int chances = 2 * clock.size();
    while (bytes > maxBytes && !clock.isEmpty()) {
      CachedFile oldest = clock.pollFirst();
      if (chances-- > 0 && oldest.passOver()) {
        clock.addLast(oldest);
        continue;
      }
      files.remove(oldest.key(), oldest);
      bytes -= oldest.weight();
    }
  }

  /** The estimated heap bytes of the metadata held. */
  public synchronized long estimatedBytes() {
    return bytes;
  }

  /** The files whose metadata is held. */
  public int size() {
    return files.size();
  }

  /** Opens that found their file's footer here. */
  public long hits() {
    return hits.sum();
  }

  /** Opens that read their file's footer. */
  public long misses() {
    return misses.sum();
  }

  /** The bound in estimated bytes. */
  public long maxBytes() {
    return maxBytes;
  }

  static long estimate(ParquetMetadata footer) {
    long estimate = 1024;
    for (BlockMetaData block : footer.getBlocks()) {
      estimate += 200 + 600L * block.getColumns().size();
    }
    estimate += 200L * footer.getFileMetaData().getSchema().getFieldCount();
    for (Map.Entry<String, String> kv : footer.getFileMetaData().getKeyValueMetaData().entrySet()) {
      estimate += 80 + 2L * (kv.getKey().length() + kv.getValue().length());
    }
    return estimate;
  }
}
