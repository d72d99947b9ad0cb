package org.meterstore.config;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.table.CheckedKind;
import org.meterstore.api.table.ColumnRole;
import org.meterstore.api.table.ExtraColumn;
import org.meterstore.api.table.SqlIdentifiers;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.api.table.TablePolicy;
import org.meterstore.api.table.TimeModel;
import org.meterstore.cold.config.CatalogKind;
import org.meterstore.cold.config.ColdTimeouts;
import org.meterstore.hot.HotConfig;
import org.meterstore.hot.HotSettings;
import org.meterstore.hot.partition.DetachMode;

/**
 * Reads the TOML tree into the configuration records, section by section; each {@link Section}
 * refuses the keys it did not read. Jackson's TOML module parses; nothing below this class sees a
 * tree.
 */
final class ConfigReader {
  private static final TomlMapper MAPPER = new TomlMapper();

  private final Map<String, String> env;
  private final Path baseDir;

  /** Every {@code ${NAME}} value handed out, with how the file wrote it. */
  private final Map<String, String> substituted = new LinkedHashMap<>();

  ConfigReader(Map<String, String> env, Path baseDir) {
    this.env = new RecordingEnv(env, substituted);
    this.baseDir = baseDir.toAbsolutePath().normalize();
  }

  /**
   * Reads the file. A refusal never shows what a {@code ${NAME}} expanded to (the variable may hold
   * a secret even where the key is not one): the value appears as the file wrote it, {@code
   * ${NAME}}, and the refusal of a record it was passed to is re-messaged without that cause.
   */
  MeterStoreConfig read(String toml) {
    try {
      return readTree(toml);
    } catch (MeterStoreException e) {
      throw withoutSubstitutions(e);
    }
  }

  private MeterStoreException withoutSubstitutions(MeterStoreException e) {
    String message = e.getMessage();
    boolean shown = false;
    for (Map.Entry<String, String> s : substituted.entrySet()) {
      String value = s.getKey();
      if (value.isEmpty()) {
        continue;
      }
      // messages quote a value, cut at 64 characters (Section.invalid, MeterStoreException)
      String quoted = "'" + (value.length() > 64 ? value.substring(0, 64) : value);
      for (Throwable t = e; t != null; t = t.getCause()) {
        shown |= t.getMessage() != null && t.getMessage().contains(quoted);
      }
      message = message.replace(quoted, "'" + s.getValue());
    }
    return shown ? new MeterStoreException(e.kind(), message) : e;
  }

  private MeterStoreConfig readTree(String toml) {
    Section root = new Section(tree(toml), "", env);
    Path dataDir =
        root.path("data_dir", baseDir, baseDir.resolve(MeterStoreConfig.DEFAULT_DATA_DIR));
    HotSection hot = hot(root.table("hot"));
    ColdSection cold = cold(root.table("cold"));
    PrivacySection privacy = privacy(root.table("privacy"));
    ServeSection serve = serve(root.table("serve"));
    List<TableDefinition> tables = new ArrayList<>();
    for (Section t : root.tables("tables")) {
      tables.add(table(t));
    }
    root.finish();
    return new MeterStoreConfig(dataDir, hot, cold, privacy, tables, serve);
  }

  private static JsonNode tree(String toml) {
    try {
      JsonNode node = MAPPER.readTree(toml);
      return node == null ? MAPPER.createObjectNode() : node;
    } catch (JacksonException e) {
      JsonLocation at = e.getLocation();
      String where =
          at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
      // The parser's own message may quote the offending text, which can be a secret.
      String why = e.getOriginalMessage().replaceAll("('[^']*'|\"[^\"]*\")", "'…'");
      throw ConfigErrors.config("Invalid TOML" + where + ": " + why);
    }
  }

  private HotSection hot(Section s) {
    HotSection h =
        new HotSection(
            s.string("url", null),
            s.string("user", null),
            s.secret("password"),
            s.integer("pool_size", HotConfig.DEFAULT_POOL_SIZE, 1, 1000),
            s.duration("ddl_lock_timeout", HotSettings.DEFAULT_DDL_LOCK_TIMEOUT),
            s.string("schema", HotSettings.DEFAULT_SCHEMA),
            detachMode(s));
    s.finish();
    return h;
  }

  private static DetachMode detachMode(Section s) {
    String mode = s.string("detach_mode", "concurrently");
    return switch (mode) {
      case "plain" -> DetachMode.PLAIN;
      case "concurrently" -> DetachMode.CONCURRENTLY;
      default -> throw s.invalid("detach_mode", "plain or concurrently");
    };
  }

  private ColdSection cold(Section s) {
    String kind = s.string("catalog", "jdbc");
    CatalogKind catalog =
        switch (kind) {
          case "jdbc" -> CatalogKind.JDBC;
          case "rest" -> CatalogKind.REST;
          default -> throw s.invalid("catalog", "jdbc or rest");
        };
    String warehouse = s.string("warehouse", null);
    S3Section s3 = s.has("s3") ? s3(s.table("s3")) : null;
    ColdSection c =
        new ColdSection(
            catalog,
            s.string("uri", null),
            s.string("user", null),
            s.secret("password"),
            warehouse,
            s.string("namespace", null),
            s.bytes("target_file_size", 0),
            timeouts(s),
            s3,
            cacheBytes(s, "footer_cache"),
            cacheBytes(s, "planned_files_cache"));
    s.finish();
    return c;
  }

  /**
   * A cache bound of [cold] as {@code ColdConfig} takes it: absent is 0 (its default), {@code "0B"}
   * is -1 (keep nothing).
   */
  private static long cacheBytes(Section s, String name) {
    long b = s.bytes(name, -1);
    if (b == -1) {
      return 0;
    }
    return b == 0 ? -1 : b;
  }

  /**
   * {@code connect_timeout}, {@code request_timeout}, {@code retry_attempts} and {@code
   * call_timeout} of [cold]; an absent call bound follows a request timeout longer than its
   * default.
   */
  private static ColdTimeouts timeouts(Section s) {
    Duration connect = timeout(s, "connect_timeout", ColdTimeouts.DEFAULT_CONNECT_TIMEOUT);
    Duration request = timeout(s, "request_timeout", ColdTimeouts.DEFAULT_REQUEST_TIMEOUT);
    int attempts = s.integer("retry_attempts", ColdTimeouts.DEFAULT_RETRY_ATTEMPTS, 1, 10);
    Duration call = timeout(s, "call_timeout", ColdTimeouts.defaultCallTimeout(request));
    if (call.compareTo(request) < 0) {
      throw s.outOfRange(
          "call_timeout", call, "at least request_timeout (" + request + "), at most 10m");
    }
    return new ColdTimeouts(connect, request, attempts, call);
  }

  private static Duration timeout(Section s, String name, Duration fallback) {
    Duration d = s.duration(name, fallback);
    if (d.isZero() || d.isNegative() || d.compareTo(Duration.ofMinutes(10)) > 0) {
      throw s.outOfRange(name, d, "more than 0s, at most 10m");
    }
    return d;
  }

  private S3Section s3(Section s) {
    String endpoint = s.string("endpoint", null);
    URI uri;
    try {
      uri = endpoint == null ? null : URI.create(endpoint);
    } catch (IllegalArgumentException e) {
      throw s.invalid("endpoint", "a URI such as http://127.0.0.1:9000");
    }
    S3Section out =
        new S3Section(
            uri,
            s.bool("path_style_access", true),
            s.string("region", null),
            s.string("access_key_id", null),
            s.secret("secret_access_key"));
    s.finish();
    return out;
  }

  private PrivacySection privacy(Section s) {
    Section keys = s.table("erasure_keys");
    Map<String, Secret> ring = new LinkedHashMap<>();
    for (String id : keys.keys()) {
      ring.put(id, keys.secret(id));
    }
    keys.finish();
    PrivacySection p =
        new PrivacySection(
            s.string("current_erasure_key", null),
            ring,
            s.integer("anonymise_after_years", 0, 0, 100),
            s.string("retention_reason", null));
    s.finish();
    return p;
  }

  private ServeSection serve(Section s) {
    Section users = s.table("users");
    Map<String, Secret> hashes = new LinkedHashMap<>();
    for (String name : users.keys()) {
      hashes.put(name, users.secret(name));
    }
    users.finish();
    Section tables = s.table("tables");
    Map<String, List<String>> readable = new LinkedHashMap<>();
    for (String name : tables.keys()) {
      readable.put(name, tables.strings(name));
    }
    tables.finish();
    ServeSection d = ServeSection.DEFAULTS;
    ServeSection out =
        new ServeSection(
            s.string("host", d.host()),
            s.integer("port", d.port(), 0, 65535),
            s.path("tls_certificate", baseDir, null),
            s.path("tls_key", baseDir, null),
            hashes,
            readable,
            s.bool("allow_anonymous", false),
            s.duration("statement_timeout", d.statementTimeout()));
    s.finish();
    return out;
  }

  private TableDefinition table(Section s) {
    String name = s.string("name", null);
    if (name == null) {
      throw ConfigErrors.config("Invalid " + s.key("name") + ": null (every table needs a name)");
    }
    String model = s.string("time_model", "interval");
    TimeModel timeModel =
        switch (model) {
          case "interval" -> TimeModel.INTERVAL;
          case "point" -> TimeModel.POINT;
          default -> throw s.invalid("time_model", "interval or point");
        };
    boolean meloInKey = s.bool("melo_in_key", false);
    String subject = s.string("subject_column", null);
    String resolutionText = s.string("resolution", null);
    Resolution resolution =
        resolutionText == null
            ? null
            : ConfigErrors.asConfig(
                s.key("resolution") + label(name),
                List.of(resolutionText),
                () -> Resolution.parse(resolutionText));
    TablePolicy d = TablePolicy.DEFAULTS;
    TablePolicy policy =
        ConfigErrors.asConfig(
            s.path() + label(name),
            () ->
                new TablePolicy(
                    s.duration("archival_step", d.archivalStep()),
                    s.duration("partition_headroom", d.partitionHeadroom()),
                    s.duration("settlement_lag", d.settlementLag()),
                    s.duration("reader_grace", d.readerGrace()),
                    s.period("snapshot_retention", d.snapshotRetention()),
                    s.integer("min_snapshots_to_keep", d.minSnapshotsToKeep(), 1, 1_000_000)));
    List<ExtraColumn> columns = new ArrayList<>();
    for (Section c : s.tables("extra_columns")) {
      columns.add(column(c));
    }
    s.finish();
    List<String> raw = new ArrayList<>(List.of(name));
    raw.add(subject);
    return ConfigErrors.asConfig(
        s.path(),
        raw,
        () ->
            new TableDefinition(name, timeModel, meloInKey, columns, subject, policy, resolution));
  }

  /**
   * {@code " (table <name>)"} for the path of a table's keys, or nothing while the name is not a
   * valid identifier (it may be a secret pasted there, and the name's own error follows).
   */
  private static String label(String name) {
    try {
      return " (table " + SqlIdentifiers.checked(name) + ")";
    } catch (IllegalArgumentException e) {
      return "";
    }
  }

  private ExtraColumn column(Section s) {
    String name = s.string("name", null);
    String roleText = s.string("role", "attribute");
    ColumnRole role = spelt(ColumnRole.values(), roleText);
    if (role == null) {
      throw s.invalid("role", "identity, attribute, coded or checked");
    }
    List<String> values = s.strings("values");
    String checkText = s.string("check", null);
    CheckedKind check = null;
    if (checkText != null) {
      check = spelt(CheckedKind.values(), checkText);
      if (check == null) {
        throw s.invalid("check", "malo, melo, eic or bdew");
      }
    }
    s.finish();
    CheckedKind kind = check;
    List<String> raw = new ArrayList<>(values);
    raw.add(name);
    return ConfigErrors.asConfig(
        s.path(), raw, () -> new ExtraColumn(name, role, new LinkedHashSet<>(values), kind));
  }

  /**
   * The constant whose name, in lower case, is exactly {@code text}, or null. Upper-casing the text
   * instead would let look-alikes through: {@code "ıdentity"} (dotless i) upper-cases to {@code
   * IDENTITY}.
   */
  private static <E extends Enum<E>> E spelt(E[] constants, String text) {
    for (E c : constants) {
      if (c.name().toLowerCase(Locale.ROOT).equals(text)) {
        return c;
      }
    }
    return null;
  }

  /** The environment, remembering each value read through it (value → {@code ${NAME}}). */
  private static final class RecordingEnv extends java.util.AbstractMap<String, String> {
    private final Map<String, String> env;
    private final Map<String, String> read;

    RecordingEnv(Map<String, String> env, Map<String, String> read) {
      this.env = env;
      this.read = read;
    }

    @Override
    public String get(Object name) {
      String value = env.get(name);
      if (value != null) {
        read.putIfAbsent(value, "${" + name + "}");
      }
      return value;
    }

    @Override
    public java.util.Set<Entry<String, String>> entrySet() {
      throw new UnsupportedOperationException("the environment is read by name only");
    }
  }
}
