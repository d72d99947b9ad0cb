package org.meterstore.imports;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;

/**
 * Where an import reads its readings from: a file whose columns are the storage model's ({@code
 * docs/storage-model.md}), one reading per record. An import opens a source twice (a checking pass,
 * then the writing pass), so {@link #open} must start from the first record every time.
 */
public interface ImportSource {

  /** What to name in messages: the file's path, say. */
  String name();

  /**
   * Opens a new pass over the records, mapped to readings of {@code table}. A reading without a
   * {@code recorded_at} gets {@code now}.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} when the header names an unknown column or
   *     lacks a required one; {@code STORAGE} when the file cannot be read
   */
  ImportCursor open(TableDefinition table, Instant now);

  /**
   * A CSV file (RFC 4180: comma-separated, {@code "} quotes, a header row of column names, UTF-8).
   */
  static ImportSource csv(Path file) {
    return new CsvSource(file);
  }

  /**
   * A Parquet file: top-level columns named as the storage model's, in the types the cold tier
   * writes ({@code timestamptz}, {@code decimal(18,6)}, {@code decimal(20,0)}, {@code date},
   * strings) or as strings parsed like CSV; read one row group at a time ({@code docs/import.md}).
   */
  static ImportSource parquet(Path file) {
    return new ParquetSource(file);
  }

  /**
   * Every {@code .csv} and {@code .parquet} file in {@code dir} and its subdirectories, read one
   * after the other in the order of their relative paths ({@code 2024-01.csv} before {@code
   * 2024-02.parquet}), each by its extension. Names starting with {@code .} or {@code _} are left
   * out (hidden files, Spark's {@code _SUCCESS}); any other file refuses the directory. The files
   * are listed once, when this is called.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} for another file or an empty directory;
   *     {@code STORAGE} when it cannot be listed
   */
  static ImportSource directory(Path dir) {
    return FileSequence.directory(dir);
  }

  /**
   * The files (or directories) {@code paths} read one after the other in the given order, each as
   * {@link #of} reads it: one import of all of them.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} for an empty list or a file of another
   *     extension
   */
  static ImportSource files(List<Path> paths) {
    return paths.size() == 1 ? of(paths.get(0)) : FileSequence.of(paths);
  }

  /**
   * The source for {@code file} by its extension, in any case: {@code .csv} or {@code .parquet}; a
   * directory is {@link #directory}.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} for another extension
   */
  static ImportSource of(Path file) {
    if (Files.isDirectory(file)) {
      return directory(file);
    }
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    if (name.endsWith(".csv")) {
      return csv(file);
    }
    if (name.endsWith(".parquet")) {
      return parquet(file);
    }
    throw MeterStoreException.invalid("import file", file, "a .csv or .parquet file");
  }
}
