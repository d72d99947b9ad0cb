package org.meterstore.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import org.apache.iceberg.io.BulkDeletionFailureException;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.iceberg.io.SupportsBulkOperations;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.meterstore.cold.internal.catalog.LocalFileIO;

/**
 * A real {@link LocalFileIO} (local warehouse, the product's FileIO for one) behind an {@link
 * ObjectStoreSwitch}: the files are real, only reachability is simulated. Plugged in as the JDBC
 * catalog's {@code io-impl}; the catalog property {@value #SWITCH} names the switch. Open streams
 * check the switch on every call, so a store that goes away mid-read or mid-write fails there, as
 * S3 does.
 */
public final class OutageFileIO implements SupportsPrefixOperations, SupportsBulkOperations {
  /** The catalog property naming the {@link ObjectStoreSwitch}. */
  public static final String SWITCH = "meterstore-test.outage-switch";

  private static final long serialVersionUID = 1L;

  private final LocalFileIO delegate = new LocalFileIO();
  private transient ObjectStoreSwitch power = ObjectStoreSwitch.named("default");

  /** Iceberg's no-argument constructor. */
  public OutageFileIO() {}

  @Override
  public void initialize(Map<String, String> properties) {
    delegate.initialize(properties);
    power = ObjectStoreSwitch.named(properties.getOrDefault(SWITCH, "default"));
  }

  @Override
  public Map<String, String> properties() {
    return delegate.properties();
  }

  @Override
  public InputFile newInputFile(String path) {
    return new In(delegate.newInputFile(path));
  }

  @Override
  public InputFile newInputFile(String path, long length) {
    return new In(delegate.newInputFile(path, length));
  }

  @Override
  public OutputFile newOutputFile(String path) {
    return new Out(delegate.newOutputFile(path));
  }

  @Override
  public void deleteFile(String path) {
    check(ObjectStoreSwitch.Op.DELETE, path);
    delegate.deleteFile(path);
  }

  @Override
  public void deleteFiles(Iterable<String> paths) throws BulkDeletionFailureException {
    check(ObjectStoreSwitch.Op.DELETE, String.valueOf(paths));
    delegate.deleteFiles(paths);
  }

  @Override
  public Iterable<FileInfo> listPrefix(String prefix) {
    check(ObjectStoreSwitch.Op.LIST, prefix);
    return delegate.listPrefix(prefix);
  }

  @Override
  public void deletePrefix(String prefix) {
    check(ObjectStoreSwitch.Op.DELETE, prefix);
    delegate.deletePrefix(prefix);
  }

  @Override
  public void close() {
    delegate.close();
  }

  private void check(ObjectStoreSwitch.Op op, String path) {
    try {
      power.check(op, path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private final class In implements InputFile {
    private final InputFile file;

    In(InputFile file) {
      this.file = file;
    }

    @Override
    public long getLength() {
      check(ObjectStoreSwitch.Op.READ, file.location());
      return file.getLength();
    }

    @Override
    public SeekableInputStream newStream() {
      check(ObjectStoreSwitch.Op.OPEN, file.location());
      return new InStream(file.newStream(), file.location());
    }

    @Override
    public String location() {
      return file.location();
    }

    @Override
    public boolean exists() {
      check(ObjectStoreSwitch.Op.READ, file.location());
      return file.exists();
    }
  }

  private final class InStream extends SeekableInputStream {
    private final SeekableInputStream in;
    private final String path;

    InStream(SeekableInputStream in, String path) {
      this.in = in;
      this.path = path;
    }

    @Override
    public long getPos() throws IOException {
      return in.getPos();
    }

    @Override
    public void seek(long newPos) throws IOException {
      power.check(ObjectStoreSwitch.Op.READ, path);
      in.seek(newPos);
    }

    @Override
    public int read() throws IOException {
      power.check(ObjectStoreSwitch.Op.READ, path);
      return in.read();
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      power.check(ObjectStoreSwitch.Op.READ, path);
      return in.read(b, off, len);
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }

  private final class Out implements OutputFile {
    private final OutputFile file;

    Out(OutputFile file) {
      this.file = file;
    }

    @Override
    public PositionOutputStream create() {
      check(ObjectStoreSwitch.Op.WRITE, file.location());
      return new OutStream(file.create(), file.location());
    }

    @Override
    public PositionOutputStream createOrOverwrite() {
      check(ObjectStoreSwitch.Op.WRITE, file.location());
      return new OutStream(file.createOrOverwrite(), file.location());
    }

    @Override
    public String location() {
      return file.location();
    }

    @Override
    public InputFile toInputFile() {
      return new In(file.toInputFile());
    }
  }

  private final class OutStream extends PositionOutputStream {
    private final PositionOutputStream out;
    private final String path;

    OutStream(PositionOutputStream out, String path) {
      this.out = out;
      this.path = path;
    }

    @Override
    public long getPos() throws IOException {
      return out.getPos();
    }

    @Override
    public void write(int b) throws IOException {
      power.check(ObjectStoreSwitch.Op.WRITE, path);
      out.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      power.check(ObjectStoreSwitch.Op.WRITE, path);
      out.write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
      power.check(ObjectStoreSwitch.Op.WRITE, path);
      out.flush();
    }

    @Override
    public void close() throws IOException {
      // the bytes reach the store on close (as with S3's multipart upload): an outage fails it
      try {
        power.check(ObjectStoreSwitch.Op.WRITE, path);
      } finally {
        out.close();
      }
    }
  }
}
