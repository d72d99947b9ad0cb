package org.meterstore.imports;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.TableDefinition;

/**
 * Several files read as one source, one after the other in a fixed order: a migration's directory
 * of monthly or per-meter-group exports. Each file keeps its own header and format (chosen by its
 * extension) and names itself in errors; the list is taken once, so both passes of an import read
 * the same files.
 */
final class FileSequence implements ImportSource {
  private final String name;
  private final List<ImportSource> files;

  private FileSequence(String name, List<ImportSource> files) {
    this.name = name;
    this.files = List.copyOf(files);
  }

  /** {@code paths} (two or more) in the given order, each as {@link ImportSource#of} reads it. */
  static FileSequence of(List<Path> paths) {
    if (paths.isEmpty()) {
      throw MeterStoreException.invalid("import files", "", "at least one file");
    }
    List<ImportSource> sources = new ArrayList<>();
    for (Path p : paths) {
      sources.add(ImportSource.of(p));
    }
    return new FileSequence(paths.get(0) + " and " + (paths.size() - 1) + " more", sources);
  }

  /**
   * Every {@code .csv} and {@code .parquet} file in {@code dir} and below, in the order of their
   * paths relative to it. Names starting with {@code .} or {@code _} are left out (hidden files,
   * Spark's {@code _SUCCESS} and Hadoop's {@code .crc}); any other file refuses the directory, so
   * nothing in it is silently skipped.
   */
  static FileSequence directory(Path dir) {
    List<Path> found = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) walk.sorted(Comparator.comparing(dir::relativize))::iterator) {
        if (p.equals(dir) || skipped(dir.relativize(p))) {
          continue;
        }
        if (Files.isDirectory(p)) {
          continue;
        }
        String lower = p.getFileName().toString().toLowerCase(Locale.ROOT);
        if (!lower.endsWith(".csv") && !lower.endsWith(".parquet")) {
          throw MeterStoreException.invalid(
              "import directory " + dir,
              dir.relativize(p),
              "every file in it must be a .csv or .parquet file (names starting with . or _ are"
                  + " left out)");
        }
        found.add(p);
      }
    } catch (IOException | java.io.UncheckedIOException e) {
      throw new MeterStoreException(
          ErrorKind.STORAGE, "Cannot import " + dir + ": cannot list it (" + e + ")", e);
    }
    if (found.isEmpty()) {
      throw MeterStoreException.invalid(
          "import directory", dir, "it holds no .csv or .parquet file");
    }
    List<ImportSource> sources = new ArrayList<>();
    found.forEach(p -> sources.add(ImportSource.of(p)));
    return new FileSequence(dir + " (" + found.size() + " files)", sources);
  }

  /** A hidden or underscore-named file or directory anywhere on the relative path. */
  private static boolean skipped(Path relative) {
    for (Path part : relative) {
      String s = part.toString();
      if (s.startsWith(".") || s.startsWith("_")) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public ImportCursor open(TableDefinition table, Instant now) {
    return new Cursor(table, now);
  }

  /** Opens each file when the one before it is read to its end. */
  private final class Cursor implements ImportCursor {
    private final TableDefinition table;
    private final Instant now;
    private int next;
    private ImportCursor current;

    Cursor(TableDefinition table, Instant now) {
      this.table = table;
      this.now = now;
    }

    @Override
    public StoredReading next() {
      while (true) {
        if (current == null) {
          if (next == files.size()) {
            return null;
          }
          current = files.get(next++).open(table, now);
        }
        StoredReading r = current.next();
        if (r != null) {
          return r;
        }
        current.close();
        current = null;
      }
    }

    @Override
    public long position() {
      return current == null ? 0 : current.position();
    }

    @Override
    public void close() {
      if (current != null) {
        current.close();
        current = null;
      }
    }
  }
}
