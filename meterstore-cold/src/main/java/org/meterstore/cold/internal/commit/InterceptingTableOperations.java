package org.meterstore.cold.internal.commit;

import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;

/**
 * Table operations that hand every catalog commit to an {@link Interceptor}. It exists so that
 * tests can make a commit fail the ways a catalog fails — refused before it lands, or unknown after
 * (or before) it lands — against a real catalog and real files.
 */
public final class InterceptingTableOperations implements TableOperations {
  /** Decides what happens to one catalog commit. */
  @FunctionalInterface
  public interface Interceptor {
    /**
     * Called instead of the catalog commit; run {@code commit} to perform it, or throw to fail it.
     */
    void commit(TableMetadata base, TableMetadata next, Runnable commit);
  }

  private final TableOperations delegate;
  private final Interceptor interceptor;

  /**
   * Operations that pass everything to {@code delegate} and commits through {@code interceptor}.
   */
  public InterceptingTableOperations(TableOperations delegate, Interceptor interceptor) {
    this.delegate = delegate;
    this.interceptor = interceptor;
  }

  @Override
  public TableMetadata current() {
    return delegate.current();
  }

  @Override
  public TableMetadata refresh() {
    return delegate.refresh();
  }

  @Override
  public void commit(TableMetadata base, TableMetadata metadata) {
    interceptor.commit(base, metadata, () -> delegate.commit(base, metadata));
  }

  @Override
  public FileIO io() {
    return delegate.io();
  }

  @Override
  public EncryptionManager encryption() {
    return delegate.encryption();
  }

  @Override
  public String metadataFileLocation(String fileName) {
    return delegate.metadataFileLocation(fileName);
  }

  @Override
  public LocationProvider locationProvider() {
    return delegate.locationProvider();
  }

  @Override
  public TableOperations temp(TableMetadata uncommittedMetadata) {
    return delegate.temp(uncommittedMetadata);
  }

  @Override
  public long newSnapshotId() {
    return delegate.newSnapshotId();
  }

  @Override
  public boolean requireStrictCleanup() {
    return delegate.requireStrictCleanup();
  }
}
