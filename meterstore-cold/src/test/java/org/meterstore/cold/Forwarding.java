package org.meterstore.cold;

/**
 * Iceberg table operations and file IO that forward every call, for tests that make something
 * happen at a precise moment of a commit (another process's commit while a file is written).
 */
final class Forwarding {
  private Forwarding() {}

  /** Table operations that forward every call; tests override what they observe. */
  static class Operations implements org.apache.iceberg.TableOperations {
    private final org.apache.iceberg.TableOperations delegate;

    Operations(org.apache.iceberg.TableOperations delegate) {
      this.delegate = delegate;
    }

    @Override
    public org.apache.iceberg.TableMetadata current() {
      return delegate.current();
    }

    @Override
    public org.apache.iceberg.TableMetadata refresh() {
      return delegate.refresh();
    }

    @Override
    public void commit(
        org.apache.iceberg.TableMetadata base, org.apache.iceberg.TableMetadata metadata) {
      delegate.commit(base, metadata);
    }

    @Override
    public org.apache.iceberg.io.FileIO io() {
      return delegate.io();
    }

    @Override
    public org.apache.iceberg.encryption.EncryptionManager encryption() {
      return delegate.encryption();
    }

    @Override
    public String metadataFileLocation(String fileName) {
      return delegate.metadataFileLocation(fileName);
    }

    @Override
    public org.apache.iceberg.io.LocationProvider locationProvider() {
      return delegate.locationProvider();
    }

    @Override
    public long newSnapshotId() {
      return delegate.newSnapshotId();
    }
  }

  /** A file IO that forwards every call. */
  static class Io implements org.apache.iceberg.io.FileIO {
    private static final long serialVersionUID = 1L;
    private final transient org.apache.iceberg.io.FileIO delegate;

    Io(org.apache.iceberg.io.FileIO delegate) {
      this.delegate = delegate;
    }

    @Override
    public org.apache.iceberg.io.InputFile newInputFile(String path) {
      return delegate.newInputFile(path);
    }

    @Override
    public org.apache.iceberg.io.InputFile newInputFile(String path, long length) {
      return delegate.newInputFile(path, length);
    }

    @Override
    public org.apache.iceberg.io.OutputFile newOutputFile(String path) {
      return delegate.newOutputFile(path);
    }

    @Override
    public void deleteFile(String path) {
      delegate.deleteFile(path);
    }

    @Override
    public java.util.Map<String, String> properties() {
      return delegate.properties();
    }
  }
}
