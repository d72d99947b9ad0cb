package org.meterstore.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Period;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.table.CheckedKind;
import org.meterstore.api.table.ColumnRole;
import org.meterstore.api.table.ExtraColumn;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.api.table.TimeModel;
import org.meterstore.cold.config.CatalogKind;
import org.meterstore.cold.config.ColdConfig;
import org.meterstore.hot.partition.DetachMode;

class MeterStoreConfigTest {
  private static final Path BASE = Path.of("/srv/meterstore");
  private static final String KEY_A = "QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUE="; // 32 x 'A'
  private static final String KEY_B = "QkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkI="; // 32 x 'B'

  static final String FULL =
      """
      data_dir = "data"

      [hot]
      url = "jdbc:postgresql://db.example:5432/metering"
      user = "meterstore"
      password = "${PG_PASSWORD}"
      pool_size = 16
      ddl_lock_timeout = "500ms"
      schema = "ms"
      detach_mode = "concurrently"

      [cold]
      catalog = "jdbc"
      warehouse = "s3://lake/meterstore"
      namespace = "metering"
      target_file_size = "64MiB"
      footer_cache = "256MiB"
      planned_files_cache = "0B"

      [cold.s3]
      endpoint = "http://127.0.0.1:9000"
      region = "eu-central-1"
      access_key_id = "minio"
      secret_access_key = "${S3_SECRET}"

      [privacy]
      current_erasure_key = "k2"
      anonymise_after_years = 3

      [privacy.erasure_keys]
      k1 = "${KEY_1}"
      k2 = "${KEY_2}"

      [[tables]]
      name = "lastgang"
      archival_step = "1d"
      partition_headroom = "14d"
      settlement_lag = "45d"
      reader_grace = "1h30m"
      snapshot_retention = "10y"
      min_snapshots_to_keep = 30
      subject_column = "subject"

      [[tables.extra_columns]]
      name = "tenant"
      role = "identity"

      [[tables.extra_columns]]
      name = "tariff"
      role = "coded"
      values = ["HT", "NT"]

      [[tables.extra_columns]]
      name = "grid_operator"
      role = "checked"
      check = "bdew"

      [[tables]]
      name = "zaehlerstand"
      time_model = "point"
      archival_step = "PT1H"
      partition_headroom = "2d"
      """;

  static final Map<String, String> ENV =
      Map.of(
          "PG_PASSWORD",
          "pg-s3cr3t-value",
          "S3_SECRET",
          "s3-s3cr3t-value",
          "KEY_1",
          KEY_A,
          "KEY_2",
          KEY_B);

  @Test
  void readsEverySectionIntoTheRecords() {
    MeterStoreConfig c = MeterStoreConfig.parse(FULL, BASE, ENV);

    assertThat(c.dataDir()).isEqualTo(BASE.resolve("data"));
    assertThat(c.hot().url()).isEqualTo("jdbc:postgresql://db.example:5432/metering");
    assertThat(c.hot().user()).isEqualTo("meterstore");
    assertThat(c.hot().password().reveal()).isEqualTo("pg-s3cr3t-value");
    assertThat(c.hot().poolSize()).isEqualTo(16);
    assertThat(c.hot().ddlLockTimeout()).isEqualTo(Duration.ofMillis(500));
    assertThat(c.hot().schema()).isEqualTo("ms");
    assertThat(c.hot().detachMode()).isEqualTo(DetachMode.CONCURRENTLY);
    assertThat(c.hot().embedded()).isFalse();

    assertThat(c.cold().catalog()).isEqualTo(CatalogKind.JDBC);
    assertThat(c.cold().warehouse()).isEqualTo("s3://lake/meterstore");
    assertThat(c.cold().namespace()).isEqualTo("metering");
    assertThat(c.cold().targetFileSizeBytes()).isEqualTo(64L * 1024 * 1024);
    assertThat(c.cold().footerCacheBytes()).isEqualTo(256L * 1024 * 1024);
    assertThat(c.cold().plannedFilesCacheBytes()).isEqualTo(-1); // "0B": keep nothing
    ColdConfig cold = c.cold().toColdConfig("jdbc:postgresql://h/db", "u", null, "file:///w");
    assertThat(cold.footerCacheBytes()).isEqualTo(256L * 1024 * 1024);
    assertThat(cold.plannedFilesCacheBytes()).isEqualTo(-1);
    assertThat(c.cold().s3().endpoint()).isEqualTo(URI.create("http://127.0.0.1:9000"));
    assertThat(c.cold().s3().pathStyleAccess()).isTrue();
    assertThat(c.cold().s3().secretAccessKey().reveal()).isEqualTo("s3-s3cr3t-value");

    assertThat(c.privacy().keyRing().currentKeyId()).isEqualTo("k2");
    assertThat(c.privacy().keyRing().keyIds()).containsExactly("k1", "k2");
    assertThat(c.privacy().retention()).isPresent();

    TableDefinition lastgang = c.tables().get(0);
    assertThat(lastgang.name()).isEqualTo("lastgang");
    assertThat(lastgang.timeModel()).isEqualTo(TimeModel.INTERVAL);
    assertThat(lastgang.subjectColumn()).isEqualTo("subject");
    assertThat(lastgang.policy().settlementLag()).isEqualTo(Duration.ofDays(45));
    assertThat(lastgang.policy().readerGrace()).isEqualTo(Duration.ofMinutes(90));
    assertThat(lastgang.policy().snapshotRetention()).isEqualTo(Period.ofYears(10));
    assertThat(lastgang.policy().minSnapshotsToKeep()).isEqualTo(30);
    assertThat(lastgang.extraColumns())
        .containsExactly(
            ExtraColumn.identity("tenant"),
            new ExtraColumn("tariff", ColumnRole.CODED, java.util.Set.of("HT", "NT"), null),
            ExtraColumn.checked("grid_operator", CheckedKind.BDEW));

    TableDefinition point = c.tables().get(1);
    assertThat(point.timeModel()).isEqualTo(TimeModel.POINT);
    assertThat(point.meloInKey()).isTrue();
    assertThat(point.policy().archivalStep()).isEqualTo(Duration.ofHours(1));
  }

  @Test
  void aHotSectionWithoutDetachModeDetachesConcurrentlyAndPlainIsStillSelectable() {
    String tables = "\n[[tables]]\nname = \"lastgang\"\n";

    MeterStoreConfig unset =
        MeterStoreConfig.parse("[hot]\npool_size = 2\n" + tables, BASE, Map.of());
    MeterStoreConfig plain =
        MeterStoreConfig.parse("[hot]\ndetach_mode = \"plain\"\n" + tables, BASE, Map.of());

    assertThat(unset.hot().detachMode()).isEqualTo(DetachMode.CONCURRENTLY);
    assertThat(HotSection.DEFAULTS.detachMode()).isEqualTo(DetachMode.CONCURRENTLY);
    assertThat(plain.hot().detachMode()).isEqualTo(DetachMode.PLAIN);
  }

  @Test
  void aMinimalFileIsTheEmbeddedDefaultWithDefaults() {
    MeterStoreConfig c =
        MeterStoreConfig.parse("[[tables]]\nname = \"lastgang\"\n", BASE, Map.of());

    assertThat(c.hot().embedded()).isTrue();
    assertThat(c.dataDir()).isEqualTo(BASE.resolve("meterstore-data"));
    assertThat(c.hot().poolSize()).isEqualTo(8);
    assertThat(c.hot().ddlLockTimeout()).isEqualTo(Duration.ofSeconds(3));
    assertThat(c.hot().schema()).isEqualTo("meterstore");
    assertThat(c.hot().detachMode()).isEqualTo(DetachMode.CONCURRENTLY);
    assertThat(c.cold().catalog()).isEqualTo(CatalogKind.JDBC);
    assertThat(c.cold().namespace()).isEqualTo("meterstore");
    assertThat(c.cold().targetFileSizeBytes()).isEqualTo(ColdConfig.DEFAULT_TARGET_FILE_SIZE);
    ColdConfig cold = c.cold().toColdConfig("jdbc:postgresql://h/db", "u", null, "file:///w");
    assertThat(cold.footerCacheBytes()).isEqualTo(64L * 1024 * 1024);
    assertThat(cold.plannedFilesCacheBytes()).isEqualTo(64L * 1024 * 1024);
    assertThat(c.privacy().keyRing()).isNull();
    assertThat(c.privacy().retention()).isEmpty();
    assertThat(c.tables()).containsExactly(TableDefinition.interval("lastgang"));
  }

  @Test
  void theColdSectionDefaultsToTheHotDatabaseAndTheDataDirectory() {
    MeterStoreConfig c =
        MeterStoreConfig.parse(
            FULL.replace("warehouse = \"s3://lake/meterstore\"\n", ""), BASE, ENV);
    ColdConfig cold =
        c.cold().toColdConfig(c.hot().url(), c.hot().user(), c.hot().password(), "file:///data/wh");

    assertThat(cold.uri()).isEqualTo(c.hot().url());
    assertThat(cold.user()).isEqualTo("meterstore");
    assertThat(cold.password()).isEqualTo("pg-s3cr3t-value");
    assertThat(cold.warehouse()).isEqualTo("file:///data/wh");
    assertThat(cold.s3().secretAccessKey()).isEqualTo("s3-s3cr3t-value");
  }

  @Test
  void anUnknownKeyIsNamedWithItsPath() {
    String misspelt = FULL.replace("partition_headroom = \"2d\"", "settlment_lag = \"2d\"");

    assertConfigError(misspelt, ENV, "Unknown key tables[1].settlment_lag");
    assertConfigError("colour = \"blue\"\n" + FULL, ENV, "Unknown key colour");
    assertConfigError(
        FULL.replace("pool_size = 16", "pool_sise = 16"), ENV, "Unknown key hot.pool_sise");
    assertConfigError(
        FULL.replace("region = \"eu-central-1\"", "region = \"eu-central-1\"\nbucket = \"x\""),
        ENV,
        "Unknown key cold.s3.bucket");
    assertConfigError(
        FULL.replace("role = \"identity\"", "role = \"identity\"\nnullable = true"),
        ENV,
        "Unknown key tables[0].extra_columns[0].nullable");
  }

  @Test
  void aDurationWithoutAUnitIsRefused() {
    assertConfigError(
        FULL.replace("settlement_lag = \"45d\"", "settlement_lag = 45"),
        ENV,
        "Invalid tables[0].settlement_lag: (value not shown)",
        "a bare number has no unit");
    assertConfigError(
        FULL.replace("ddl_lock_timeout = \"500ms\"", "ddl_lock_timeout = \"500\""),
        ENV,
        "Invalid hot.ddl_lock_timeout: (value not shown)");
    assertConfigError(
        FULL.replace("target_file_size = \"64MiB\"", "target_file_size = 67108864"),
        ENV,
        "Invalid cold.target_file_size",
        "a bare number has no unit");
  }

  @Test
  void valuesOutOfRangeAreRefusedNamingTheKey() {
    assertConfigError(
        FULL.replace("pool_size = 16", "pool_size = 0"), ENV, "hot.pool_size", "1 to 1000");
    assertConfigError(
        FULL.replace("archival_step = \"1d\"", "archival_step = \"7m\""),
        ENV,
        "tables[0] (table lastgang)",
        "archival_step");
    assertConfigError(
        FULL.replace("partition_headroom = \"2d\"", "partition_headroom = \"30m\""),
        ENV,
        "tables[1] (table zaehlerstand)",
        "partition_headroom");
    assertConfigError(
        FULL.replace("anonymise_after_years = 3", "anonymise_after_years = 101"),
        ENV,
        "privacy.anonymise_after_years");
    assertConfigError(FULL.replace("schema = \"ms\"", "schema = \"Ms\""), ENV, "hot.schema");
    assertConfigError(
        FULL.replace("detach_mode = \"concurrently\"", "detach_mode = \"later\""),
        ENV,
        "hot.detach_mode",
        "plain or concurrently");
    assertConfigError(
        FULL.replace("catalog = \"jdbc\"", "catalog = \"glue\""),
        ENV,
        "cold.catalog",
        "jdbc or rest");
    assertConfigError(
        FULL.replace("time_model = \"point\"", "time_model = \"points\""),
        ENV,
        "tables[1].time_model");
    assertConfigError(
        FULL.replace("name = \"zaehlerstand\"", "name = \"lastgang\""),
        ENV,
        "tables[1].name",
        "declared twice");
    assertConfigError(
        FULL.replace("name = \"zaehlerstand\"", "name = \"lastgang_current\""),
        ENV,
        "tables[1].name",
        "lastgang's resolved view");
    assertConfigError("data_dir = \"x\"\n", Map.of(), "at least one [[tables]]");
    assertConfigError(
        FULL.replace("url = \"jdbc:postgresql:", "url = \"jdbc:mysql:"),
        ENV,
        "hot.url",
        "jdbc:postgresql:");
  }

  @Test
  void environmentVariablesAreInterpolatedAndAMissingOneIsNamed() {
    MeterStoreConfig c =
        MeterStoreConfig.parse(
            "[hot]\nurl = \"jdbc:postgresql://${PGHOST}:5432/db\"\nuser = \"$${literal}\"\n"
                + "[[tables]]\nname = \"t\"\n",
            BASE,
            Map.of("PGHOST", "db1"));
    assertThat(c.hot().url()).isEqualTo("jdbc:postgresql://db1:5432/db");
    assertThat(c.hot().user()).isEqualTo("${literal}");

    Map<String, String> noKey = new java.util.HashMap<>(ENV);
    noKey.remove("S3_SECRET");
    assertConfigError(
        FULL, noKey, "cold.s3.secret_access_key", "environment variable S3_SECRET is not set");
    assertConfigError(
        FULL.replace("\"${PG_PASSWORD}\"", "\"${PG_PASSWORD\""), ENV, "hot.password", "unfinished");
  }

  @Test
  void secretsNeverAppearInToStringOrErrors() {
    MeterStoreConfig c =
        MeterStoreConfig.parse(
            FULL.replace(
                "url = \"jdbc:postgresql://db.example:5432/metering\"",
                "url = \"jdbc:postgresql://db.example:5432/metering?password=url-s3cr3t-value\""),
            BASE,
            ENV);
    String shown = c.toString();
    assertThat(shown)
        .doesNotContain("s3cr3t")
        .doesNotContain(KEY_A)
        .doesNotContain(KEY_B)
        .contains("****")
        .contains("db.example");

    Map<String, String> shortKey = new java.util.HashMap<>(ENV);
    shortKey.put("KEY_1", "c2hvcnQtczNjcjN0"); // "short-s3cr3t": 12 bytes
    assertConfigErrorHides(FULL, shortKey, "c2hvcnQtczNjcjN0", "short-s3cr3t");
    shortKey.put("KEY_1", "not base64 s3cr3t!");
    assertConfigErrorHides(FULL, shortKey, "s3cr3t");
    assertConfigErrorHides(
        FULL.replace("password = \"${PG_PASSWORD}\"", "password = \"pw-s3cr3t\" oops"),
        ENV,
        "pw-s3cr3t");
    assertConfigErrorHides(
        FULL.replace("password = \"${PG_PASSWORD}\"", "password = 12345678"), ENV, "12345678");
  }

  /**
   * Issue #19: the PostgreSQL driver does not read user info and logged the rest of such a URL
   * (secret included) through java.util.logging; such URLs are refused before any driver sees them.
   */
  @Test
  void userInfoInAUrlIsRefusedWithoutShowingIt() {
    String tables = "[[tables]]\nname = \"lastgang\"\n";
    for (String toml :
        List.of(
            "[hot]\nurl = \"jdbc:postgresql://meter:ui-s3cr3t@db/m\"\n",
            "[hot]\nurl = \"jdbc:postgresql://meter@db/m\"\n",
            "[hot]\nurl = \"jdbc:postgresql://db/m\"\n[cold]\n"
                + "uri = \"jdbc:postgresql://meter:ui-s3cr3t@db/c\"\n",
            "[hot]\nurl = \"jdbc:postgresql://db/m\"\n[cold]\ncatalog = \"rest\"\n"
                + "uri = \"http://meter:ui-s3cr3t@rest:8181/api\"\n")) {
      assertThatThrownBy(() -> MeterStoreConfig.parse(toml + tables, BASE, Map.of()))
          .as(toml)
          .isInstanceOfSatisfying(
              MeterStoreException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.CONFIG))
          .hasMessageContaining("no user info")
          .hasMessageNotContaining("s3cr3t")
          .hasMessageNotContaining("meter@");
    }
  }

  @Test
  void loadReadsAFileAndResolvesPathsAgainstItsDirectory(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("conf/meterstore.toml");
    Files.createDirectories(file.getParent());
    Files.writeString(file, "data_dir = \"../state\"\n[[tables]]\nname = \"lastgang\"\n");

    MeterStoreConfig c = MeterStoreConfig.load(file, Map.of());

    assertThat(c.dataDir()).isEqualTo(dir.resolve("state").toAbsolutePath().normalize());
    assertThatThrownBy(() -> MeterStoreConfig.load(dir.resolve("missing.toml"), Map.of()))
        .isInstanceOfSatisfying(
            MeterStoreException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.CONFIG))
        .hasMessageContaining("missing.toml")
        .hasMessageContaining("no such file");
  }

  @Test
  void theExamplesOfTheConfigurationPageParse() throws Exception {
    String page = Files.readString(Path.of("..", "docs", "configuration.md"));
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("```toml\n(.*?)```", java.util.regex.Pattern.DOTALL)
            .matcher(page);
    Map<String, String> env =
        Map.of(
            "METERSTORE_PG_PASSWORD", "pw",
            "METERSTORE_S3_SECRET", "secret",
            "METERSTORE_ERASURE_KEY_2026", KEY_A);
    int examples = 0;
    while (m.find()) {
      MeterStoreConfig c = MeterStoreConfig.parse(m.group(1), BASE, env);
      assertThat(c.tables()).isNotEmpty();
      examples++;
    }
    assertThat(examples).isEqualTo(3);
  }

  @Test
  void invalidTomlNamesLineAndColumn() {
    assertConfigError("[hot\nurl = 1\n", Map.of(), "Invalid TOML at line 1");
  }

  @Test
  void aTableMayDeclareOneFixedResolutionInAnySpelling() {
    MeterStoreConfig c =
        MeterStoreConfig.parse(
            FULL.replace(
                "archival_step = \"1d\"", "archival_step = \"1d\"\nresolution = \"pt900s\""),
            BASE,
            ENV);
    assertThat(c.tables().get(0).resolution()).isEqualTo(Resolution.PT15M);
    assertThat(c.tables().get(0).gridExcludesOverlap()).isTrue();
    assertThat(c.tables().get(1).resolution()).isNull();
    assertThat(MeterStoreConfig.parse(FULL, BASE, ENV).tables().get(0).resolution()).isNull();
  }

  @Test
  void refusesAResolutionThatIsNoneOrOnAPointTable() {
    assertConfigError(
        FULL.replace("archival_step = \"1d\"", "archival_step = \"1d\"\nresolution = \"PT7M\""),
        ENV,
        "tables[0].resolution (table lastgang)",
        // the text as written is never shown: it may be a secret pasted into the wrong key
        "Invalid resolution: (value not shown) (must divide a day exactly)");
    assertConfigError(
        FULL.replace(
            "archival_step = \"PT1H\"", "archival_step = \"PT1H\"\nresolution = \"PT15M\""),
        ENV,
        "tables[1]",
        "Invalid resolution: 'PT15M' (a fixed resolution is declared on INTERVAL tables only)");
    assertConfigError(
        FULL.replace("archival_step = \"1d\"", "archival_step = \"1d\"\nresolution = 15"),
        ENV,
        "tables[0].resolution");
  }

  private static void assertConfigError(String toml, Map<String, String> env, String... parts) {
    assertThatThrownBy(() -> MeterStoreConfig.parse(toml, BASE, env))
        .isInstanceOfSatisfying(
            MeterStoreException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.CONFIG);
              for (String part : parts) {
                assertThat(e.getMessage()).contains(part);
              }
            });
  }

  private static void assertConfigErrorHides(
      String toml, Map<String, String> env, String... secrets) {
    assertThatThrownBy(() -> MeterStoreConfig.parse(toml, BASE, env))
        .isInstanceOfSatisfying(
            MeterStoreException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.CONFIG);
              for (Throwable t = e; t != null; t = t.getCause()) {
                for (String secret : secrets) {
                  assertThat(String.valueOf(t.getMessage())).doesNotContain(secret);
                }
              }
            });
  }
}
