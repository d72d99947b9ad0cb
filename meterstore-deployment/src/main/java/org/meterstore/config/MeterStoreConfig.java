package org.meterstore.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;

/**
 * One deployment's configuration, parsed once from {@code meterstore.toml} (DESIGN § 11; every key
 * is listed in {@code docs/configuration.md}). Immutable and thread-safe; {@link #toString()} and
 * every error message are free of secrets. A configuration is not a running deployment: {@code
 * MeterStores.open(config, otel)} makes one.
 *
 * @param dataDir the data directory of the embedded default ({@code data_dir}, default {@code
 *     meterstore-data} next to the file): {@code pg/} holds the embedded PostgreSQL cluster and
 *     {@code warehouse/} the local warehouse; absolute and normalised
 * @param hot the {@code [hot]} section
 * @param cold the {@code [cold]} section
 * @param privacy the {@code [privacy]} section
 * @param tables the {@code [[tables]]}, at least one, names unique, in file order
 * @param serve the {@code [serve]} section ({@code meterstore serve})
 */
public record MeterStoreConfig(
    Path dataDir,
    HotSection hot,
    ColdSection cold,
    PrivacySection privacy,
    List<TableDefinition> tables,
    ServeSection serve) {

  /** The default data directory name, resolved against the configuration file's directory. */
  public static final String DEFAULT_DATA_DIR = "meterstore-data";

  /** Checks presence and table names ({@code CONFIG}). */
  public MeterStoreConfig {
    Objects.requireNonNull(dataDir, "dataDir");
    dataDir = dataDir.toAbsolutePath().normalize();
    hot = hot == null ? HotSection.DEFAULTS : hot;
    cold = cold == null ? ColdSection.DEFAULTS : cold;
    privacy = privacy == null ? PrivacySection.DEFAULTS : privacy;
    serve = serve == null ? ServeSection.DEFAULTS : serve;
    tables = List.copyOf(tables == null ? List.of() : tables);
    if (tables.isEmpty()) {
      throw new MeterStoreException(
          ErrorKind.CONFIG, "Invalid tables: none declared (at least one [[tables]] entry)");
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < tables.size(); i++) {
      if (!names.add(tables.get(i).name())) {
        throw new MeterStoreException(
            ErrorKind.CONFIG,
            "Invalid tables[" + i + "].name: '" + tables.get(i).name() + "' (declared twice)");
      }
    }
    for (int i = 0; i < tables.size(); i++) {
      String name = tables.get(i).name();
      if (name.endsWith(VIEW_SUFFIX)
          && names.contains(name.substring(0, name.length() - VIEW_SUFFIX.length()))) {
        throw new MeterStoreException(
            ErrorKind.CONFIG,
            "Invalid tables["
                + i
                + "].name: '"
                + name
                + "' (the name of table "
                + name.substring(0, name.length() - VIEW_SUFFIX.length())
                + "'s resolved view in the Iceberg catalog; choose another name)");
      }
    }
  }

  /** The suffix of a table's resolved view ({@code ResolvedView.SUFFIX}). */
  private static final String VIEW_SUFFIX = org.meterstore.cold.view.ResolvedView.SUFFIX;

  /**
   * Reads {@code file} with the process environment for {@code ${ENV}} interpolation.
   *
   * @throws MeterStoreException {@code CONFIG} naming the file and the problem: a missing file,
   *     invalid TOML (line and column), an unknown key (with its path, e.g. {@code
   *     tables[1].settlment_lag}), a value out of range, a duration without a unit, an unset
   *     environment variable
   */
  public static MeterStoreConfig load(Path file) {
    return load(file, System.getenv());
  }

  /**
   * Reads {@code file}, taking {@code ${NAME}} values from {@code env} (tests pass their own map).
   * Relative paths in the file resolve against the file's directory.
   *
   * @throws MeterStoreException {@code CONFIG}, see {@link #load(Path)}
   */
  public static MeterStoreConfig load(Path file, Map<String, String> env) {
    Objects.requireNonNull(file, "file");
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new MeterStoreException(
          ErrorKind.CONFIG, "Cannot read configuration " + file + ": no such file", e);
    } catch (IOException e) {
      throw new MeterStoreException(
          ErrorKind.CONFIG, "Cannot read configuration " + file + ": " + e.getMessage(), e);
    }
    Path base = file.toAbsolutePath().normalize().getParent();
    try {
      return parse(text, base, env);
    } catch (MeterStoreException e) {
      throw new MeterStoreException(
          ErrorKind.CONFIG, "Cannot load configuration " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Parses TOML text; relative paths resolve against {@code baseDir}.
   *
   * @throws MeterStoreException {@code CONFIG}, see {@link #load(Path)}
   */
  public static MeterStoreConfig parse(String toml, Path baseDir, Map<String, String> env) {
    Objects.requireNonNull(toml, "toml");
    Objects.requireNonNull(baseDir, "baseDir");
    return new ConfigReader(Map.copyOf(env), baseDir).read(toml);
  }

  /**
   * {@code e} itself, or — when any message, cause or suppressed exception in it shows one of this
   * configuration's secrets (a password, the S3 secret key, an erasure key, a URL's user info or
   * query string) — a {@code MeterStoreException} of the same kind and retryability whose message
   * and cause chain are copies with each secret masked as {@code ****}. For errors of the libraries
   * a deployment opens (PostgreSQL driver, HikariCP, Iceberg), which quote what they were given.
   */
  public RuntimeException withoutSecrets(RuntimeException e) {
    return Redaction.scrub(e, Redaction.secretsOf(this));
  }

  /** The table called {@code name}, if declared. */
  public java.util.Optional<TableDefinition> table(String name) {
    return tables.stream().filter(t -> t.name().equals(name)).findFirst();
  }
}
