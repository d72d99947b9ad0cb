package org.meterstore.cold.scan;

import java.io.IOException;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * Parquet's view of an Iceberg {@link org.apache.iceberg.io.InputFile}, so that Parquet's file
 * reader reads through the table's own {@code FileIO} (local files, S3, vended credentials) and
 * never through Hadoop's file systems. Iceberg's own adapter is package-private.
 */
final class IcebergInputFile implements InputFile {
  private final org.apache.iceberg.io.InputFile file;

  IcebergInputFile(org.apache.iceberg.io.InputFile file) {
    this.file = file;
  }

  @Override
  public long getLength() throws IOException {
    return file.getLength();
  }

  @Override
  public SeekableInputStream newStream() throws IOException {
    org.apache.iceberg.io.SeekableInputStream in = file.newStream();
    return new DelegatingSeekableInputStream(in) {
      @Override
      public long getPos() throws IOException {
        return in.getPos();
      }

      @Override
      public void seek(long newPos) throws IOException {
        in.seek(newPos);
      }
    };
  }

  @Override
  public String toString() {
    return file.location();
  }
}
