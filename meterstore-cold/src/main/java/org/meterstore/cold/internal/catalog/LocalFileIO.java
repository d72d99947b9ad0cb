package org.meterstore.cold.internal.catalog;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.RuntimeIOException;
import org.apache.iceberg.io.BulkDeletionFailureException;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.iceberg.io.SupportsBulkOperations;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * Iceberg's {@code FileIO} for a warehouse on the local file system, on {@code java.nio}. It
 * replaces Hadoop's local file system, which a {@code file:} warehouse otherwise gets through
 * {@code HadoopFileIO}: that one starts a {@code chmod} process for every file it creates (no
 * native Hadoop library here), writes a {@code .crc} checksum file beside each and checks it on
 * every read. The files are the same Parquet, Avro and JSON files, at the same locations: tables
 * written by either read with the other, and by Spark, Trino or DuckDB.
 *
 * <p>Locations are {@code file:/path}, {@code file:///path} or a plain absolute path; {@code %XX}
 * escapes in them are decoded, as Hadoop's paths are ({@code Path.toUri()} of a directory with a
 * space gives {@code file:///a%20b/}). A prefix listing names each file by the prefix as given
 * followed by its path below it, so listed and referenced locations compare as strings. {@link
 * #newOutputFile(String)}'s {@code create} fails with {@code AlreadyExistsException} when the file
 * exists; a missing file reads as {@code NotFoundException}; other failures are {@code
 * RuntimeIOException}s. Like Hadoop's local file system, a closed file is handed to the operating
 * system, not forced to the disk.
 *
 * <p>A {@code .crc} file Hadoop left beside a file belongs to it: a prefix listing leaves it out
 * while that file exists (so it is no orphan), and deleting the file deletes it too.
 */
public final class LocalFileIO implements SupportsPrefixOperations, SupportsBulkOperations {
  private static final long serialVersionUID = 1L;
  private static final int BUFFER = 64 * 1024;

  private Map<String, String> properties = Map.of();

  /** Iceberg's no-argument constructor. */
  public LocalFileIO() {}

  /** Whether {@code location} names a local file: a {@code file:} location or an absolute path. */
  public static boolean isLocal(String location) {
    return location != null && (location.startsWith("file:") || location.startsWith("/"));
  }

  @Override
  public void initialize(Map<String, String> props) {
    this.properties = Map.copyOf(props);
  }

  @Override
  public Map<String, String> properties() {
    return properties;
  }

  @Override
  public InputFile newInputFile(String location) {
    return new In(location, path(location), -1);
  }

  @Override
  public InputFile newInputFile(String location, long length) {
    return new In(location, path(location), length);
  }

  @Override
  public OutputFile newOutputFile(String location) {
    return new Out(location, path(location));
  }

  @Override
  public void deleteFile(String location) {
    Path p = path(location);
    try {
      Files.deleteIfExists(p);
      Files.deleteIfExists(checksumOf(p));
    } catch (DirectoryNotEmptyException e) {
      throw new RuntimeIOException(e, "Cannot delete %s: a directory that is not empty", location);
    } catch (IOException e) {
      throw new RuntimeIOException(e, "Cannot delete %s", location);
    }
  }

  @Override
  public void deleteFiles(Iterable<String> locations) throws BulkDeletionFailureException {
    int failed = 0;
    for (String location : locations) {
      try {
        deleteFile(location);
      } catch (RuntimeIOException e) {
        failed++;
      }
    }
    if (failed > 0) {
      throw new BulkDeletionFailureException(failed);
    }
  }

  @Override
  public Iterable<FileInfo> listPrefix(String prefix) {
    Path root = path(prefix);
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    String base = prefix.endsWith("/") ? prefix : prefix + "/";
    List<FileInfo> files = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(root)) {
      walk.forEach(
          p -> {
            BasicFileAttributes a = attributes(p);
            if (a != null && a.isRegularFile() && !isChecksumOfExisting(p)) {
              String below =
                  root.relativize(p).toString().replace(p.getFileSystem().getSeparator(), "/");
              files.add(new FileInfo(base + below, a.size(), a.lastModifiedTime().toMillis()));
            }
          });
    } catch (IOException | UncheckedIOException e) {
      throw failed(e, "Cannot list %s", prefix);
    }
    return files;
  }

  @Override
  public void deletePrefix(String prefix) {
    Path root = path(prefix);
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException | UncheckedIOException e) {
      throw failed(e, "Cannot delete %s", prefix);
    }
  }

  /** A walk's failure, thrown directly or from inside the stream, as Iceberg's I/O error. */
  private static RuntimeIOException failed(Exception e, String message, String prefix) {
    IOException cause = e instanceof IOException io ? io : ((UncheckedIOException) e).getCause();
    return new RuntimeIOException(cause, message, prefix);
  }

  /** The file a location names. */
  static Path path(String location) {
    String s = location;
    if (s.startsWith("file://")) {
      s = s.substring("file://".length());
    } else if (s.startsWith("file:")) {
      s = s.substring("file:".length());
    }
    if (!s.startsWith("/")) {
      throw new IllegalArgumentException("Not an absolute local location: " + location);
    }
    return Path.of(s.indexOf('%') < 0 ? s : decode(s));
  }

  /** {@code s} with its {@code %XX} escapes decoded as UTF-8; a lone {@code %} stays. */
  private static String decode(String s) {
    StringBuilder out = new StringBuilder(s.length());
    ByteArrayOutputStream escaped = new ByteArrayOutputStream();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      int hi = i + 2 < s.length() ? Character.digit(s.charAt(i + 1), 16) : -1;
      int lo = i + 2 < s.length() ? Character.digit(s.charAt(i + 2), 16) : -1;
      if (c == '%' && hi >= 0 && lo >= 0) {
        escaped.write(hi * 16 + lo);
        i += 2;
        continue;
      }
      if (escaped.size() > 0) {
        out.append(escaped.toString(StandardCharsets.UTF_8));
        escaped.reset();
      }
      out.append(c);
    }
    return out.append(escaped.toString(StandardCharsets.UTF_8)).toString();
  }

  /** Hadoop's checksum file of {@code p}: {@code .<name>.crc} beside it. */
  private static Path checksumOf(Path p) {
    return p.resolveSibling("." + p.getFileName() + ".crc");
  }

  private static boolean isChecksumOfExisting(Path p) {
    String name = p.getFileName().toString();
    if (!name.startsWith(".") || !name.endsWith(".crc") || name.length() <= 5) {
      return false;
    }
    return Files.exists(p.resolveSibling(name.substring(1, name.length() - 4)));
  }

  private static BasicFileAttributes attributes(Path p) {
    try {
      return Files.readAttributes(p, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      return null; // deleted while listing
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A file to read. */
  private static final class In implements InputFile {
    private final String location;
    private final Path path;
    private long length;

    In(String location, Path path, long length) {
      this.location = location;
      this.path = path;
      this.length = length;
    }

    @Override
    public long getLength() {
      if (length < 0) {
        try {
          length = Files.size(path);
        } catch (NoSuchFileException e) {
          throw new NotFoundException(e, "File does not exist: %s", location);
        } catch (IOException e) {
          throw new RuntimeIOException(e, "Cannot read the length of %s", location);
        }
      }
      return length;
    }

    @Override
    public SeekableInputStream newStream() {
      try {
        return new LocalStreams.SeekableChannel(FileChannel.open(path, StandardOpenOption.READ));
      } catch (NoSuchFileException e) {
        throw new NotFoundException(e, "Failed to open input stream for file: %s", location);
      } catch (IOException e) {
        throw new RuntimeIOException(e, "Failed to open input stream for file: %s", location);
      }
    }

    @Override
    public String location() {
      return location;
    }

    @Override
    public boolean exists() {
      return Files.exists(path);
    }
  }

  /** A file to write. */
  private static final class Out implements OutputFile {
    private final String location;
    private final Path path;

    Out(String location, Path path) {
      this.location = location;
      this.path = path;
    }

    @Override
    public PositionOutputStream create() {
      return open(StandardOpenOption.CREATE_NEW);
    }

    @Override
    public PositionOutputStream createOrOverwrite() {
      return open(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
    }

    private PositionOutputStream open(OpenOption... how) {
      try {
        Path parent = path.getParent();
        if (parent != null) {
          Files.createDirectories(parent);
        }
        OutputStream out = Files.newOutputStream(path, with(how, StandardOpenOption.WRITE));
        return new LocalStreams.CountingStream(new BufferedOutputStream(out, BUFFER));
      } catch (FileAlreadyExistsException e) {
        throw new AlreadyExistsException(e, "Location already exists: %s", location);
      } catch (IOException e) {
        throw new RuntimeIOException(e, "Failed to create file: %s", location);
      }
    }

    private static OpenOption[] with(OpenOption[] how, OpenOption more) {
      OpenOption[] all = java.util.Arrays.copyOf(how, how.length + 1);
      all[how.length] = more;
      return all;
    }

    @Override
    public String location() {
      return location;
    }

    @Override
    public InputFile toInputFile() {
      return new In(location, path, -1);
    }
  }
}
