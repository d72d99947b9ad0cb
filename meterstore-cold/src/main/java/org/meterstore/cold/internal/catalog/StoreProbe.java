package org.meterstore.cold.internal.catalog;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.FileIO;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.outage.StorageFailures;

/**
 * The metadata file each table's last load saw, kept for one cold store, so that a load can ask the
 * object store about it before the catalog reads metadata. Why: Iceberg reads a metadata file with
 * up to 20 retries and a backoff growing to 5 s (about 90 s), and no catalog offers a setting for
 * it; with the store unreachable every load would stall that long. One request fails at once
 * instead. Shared by every {@link TableAccess} of the store (archival opens a new one per run).
 * Thread-safe.
 *
 * <p>Before a table's first load (a new process: every CLI verb) there is no metadata file to ask
 * about, yet the JDBC catalog's first load and existence check read one; so a store whose warehouse
 * is on object storage also asks about the warehouse root (a key that need not exist) through a
 * FileIO of its own.
 */
public final class StoreProbe implements AutoCloseable {
  private final Map<TableIdentifier, Seen> seen = new ConcurrentHashMap<>();
  private final Seen root;
  private final boolean enabled;

  private record Seen(FileIO io, String metadataLocation) {}

  /** A probe that checks nothing before a table's first load. */
  public StoreProbe() {
    this(null, null);
  }

  /**
   * A probe that, before a table's first load, asks {@code rootIo} about {@code rootLocation} (both
   * null for none); {@link #close()} closes {@code rootIo}.
   */
  public StoreProbe(FileIO rootIo, String rootLocation) {
    this(rootIo, rootLocation, true);
  }

  private StoreProbe(FileIO rootIo, String rootLocation, boolean enabled) {
    this.root = rootIo == null || rootLocation == null ? null : new Seen(rootIo, rootLocation);
    this.enabled = enabled;
  }

  /**
   * A probe that checks nothing ever: for a REST catalog, whose client reads no metadata file (the
   * catalog sends the metadata), so a load has no metadata retries to avoid and a catalog that
   * still answers keeps W readable while the object store is down.
   */
  public static StoreProbe none() {
    return new StoreProbe(null, null, false);
  }

  /** Records that a load of {@code id} read {@code metadataLocation} through {@code io}. */
  void saw(TableIdentifier id, FileIO io, String metadataLocation) {
    if (enabled && io != null && metadataLocation != null) {
      seen.put(id, new Seen(io, metadataLocation));
    }
  }

  /**
   * Fails at once when the object store does not answer for the last metadata file seen of {@code
   * id}, or before its first load for the warehouse root when one was given; a file that is gone
   * (expired) is no failure.
   *
   * @throws MeterStoreException {@code STORAGE} (retryable) naming {@code tableName}
   */
  public void check(TableIdentifier id, String tableName) {
    Seen s = seen.getOrDefault(id, root);
    if (s == null) {
      return;
    }
    ask(s.io(), s.metadataLocation(), tableName);
  }

  /**
   * Asks {@code io} whether {@code location} exists, for the fact of an answer only: a refusal
   * (such as 403 for a role without list rights asking about a missing key) is an answer too.
   *
   * @throws MeterStoreException {@code STORAGE} (retryable) naming {@code tableName} when the store
   *     does not answer ({@link StorageFailures})
   */
  public static void ask(FileIO io, String location, String tableName) {
    try {
      io.newInputFile(location).exists();
    } catch (RuntimeException e) {
      if (StorageFailures.find(e) == null) {
        return;
      }
      throw new MeterStoreException(
          ErrorKind.STORAGE,
          "Cannot load cold table " + tableName + ": the object store does not answer (" + e + ")",
          e);
    }
  }

  @Override
  public void close() {
    if (root != null) {
      root.io().close();
    }
  }
}
