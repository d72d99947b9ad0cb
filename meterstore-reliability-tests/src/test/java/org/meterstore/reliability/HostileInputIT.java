package org.meterstore.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.opentelemetry.api.OpenTelemetry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.meterstore.MeterCatalog;
import org.meterstore.MeterStores;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.ReadingBuilder;
import org.meterstore.api.reading.Tier;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.ExtraColumn;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.config.MeterStoreConfig;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.Workload;

/**
 * Hostile input through the public surface — readings built with the api's builder and written with
 * {@code MeterTable.append}, table definitions, purge requests and {@code meterstore.toml} files
 * opened with {@link MeterStores}. The promise: every attack is refused with a typed {@link
 * MeterStoreException} whose message names the rule or the offending field, <b>nothing</b> is
 * written to either tier (hot rows, hot relations, cold snapshots and cold rows are compared before
 * and after), and the store stays healthy (a valid batch is accepted right after, and {@code
 * "system".tables} reports every table healthy with no invariant violation).
 *
 * <p>The deployment: {@code lastgang} (interval, a coded extra column {@code tarif}), {@code
 * zaehlerstand} (point) and {@code privat} (interval with a subject column). Two meters' first hour
 * of 2 and 3 March 2026 are written; archival at 4 March moves W to 3 March, so 2 March is cold and
 * 3 March hot.
 */
@ExtendWith(PostgresExtension.class)
class HostileInputIT {
  static final Instant CREATED = Instant.parse("2026-03-01T00:00:00Z");
  static final Instant MAR2 = Instant.parse("2026-03-02T00:00:00Z");
  static final Instant MAR3 = Instant.parse("2026-03-03T00:00:00Z");
  static final Instant MAR4 = Instant.parse("2026-03-04T00:00:00Z");
  static final Instant NOW = MAR4.plus(Duration.ofHours(2));
  static final String V1 = "20260301000000";
  static final String V2 = "20260302000000";
  static final String OTHER_OPERATOR = "9900357000004";
  static final String MELO = "DE0001234567890123456789012345678";
  static final String SECRET = "S3cret-from-env";
  static final List<String> TABLES = List.of("lastgang", "zaehlerstand", "privat");

  @TempDir static Path dir;
  static TestDatabase db;
  static MeterCatalog catalog;
  static StoreState state;
  static String subject2025;
  static final AtomicInteger probes = new AtomicInteger();

  @BeforeAll
  static void openAndSeed(TestDatabase database) throws Exception {
    db = database;
    Path config = dir.resolve("meterstore.toml");
    Files.writeString(config, baseToml(""), StandardCharsets.UTF_8);
    catalog = MeterStores.open(config, OpenTelemetry.noop());
    catalog.createTables(CREATED);
    List<Reading> seed = new ArrayList<>();
    for (Instant day : List.of(MAR2, MAR3)) {
      for (int q = 0; q < 4; q++) {
        for (int meter = 1; meter <= 2; meter++) {
          seed.add(reading(meter, day.plus(Duration.ofMinutes(15L * q)), "1.5").build());
        }
      }
    }
    assertThat(catalog.table("lastgang").append(seed, CREATED).tiers()).containsOnly(Tier.HOT);
    assertThat(catalog.archive(MAR4, 8).healthy()).isTrue();
    assertThat(catalog.table("lastgang").watermark()).isEqualTo(MAR3);
    subject2025 =
        catalog
            .subjects()
            .registerSubject("KD-4711", Instant.parse("2025-06-01T10:00:00Z"), Commodity.STROM, NOW)
            .value();
    state = new StoreState(db, catalog, TABLES);
  }

  @AfterAll
  static void close() {
    if (catalog != null) {
      catalog.close();
    }
  }

  // ---------------------------------------------------------------- readings

  static Stream<Arguments> readings() {
    return Stream.of(
        // identifiers
        attack(
            "MaLo with a wrong check digit",
            INVALID,
            of("MaLo-ID", "check digit"),
            () -> append(reading(3, MAR3, "1").malo("51238696782"))),
        attack(
            "MaLo of ten digits",
            INVALID,
            of("MaLo-ID", "11 digits"),
            () -> append(reading(3, MAR3, "1").malo("5123869678"))),
        attack(
            "MaLo with a leading zero",
            INVALID,
            of("MaLo-ID", "first 1-9"),
            () -> append(reading(3, MAR3, "1").malo("01238696781"))),
        attack(
            "MaLo in full-width digits",
            INVALID,
            of("MaLo-ID", "11 digits"),
            () -> append(reading(3, MAR3, "1").malo("５１２３８６９６７８１"))),
        attack(
            "MaLo in Arabic-Indic digits",
            INVALID,
            of("MaLo-ID", "11 digits"),
            () -> append(reading(3, MAR3, "1").malo("٥١٢٣٨٦٩٦٧٨١"))),
        attack(
            "MaLo with a space inside",
            INVALID,
            of("MaLo-ID", "11 digits"),
            () -> append(reading(3, MAR3, "1").malo("51238 696781"))),
        attack(
            "MaLo carrying SQL",
            INVALID,
            of("MaLo-ID"),
            () -> append(reading(3, MAR3, "1").malo("1' OR '1'='1"))),
        attack(
            "OBIS short form",
            INVALID,
            of("OBIS code", "short form"),
            () -> append(reading(3, MAR3, "1").obis("1.8.0"))),
        attack(
            "OBIS group above 255",
            INVALID,
            of("OBIS code", "256"),
            () -> append(reading(3, MAR3, "1").obis("1-0:256.8.0"))),
        attack(
            "OBIS carrying SQL",
            INVALID,
            of("OBIS code"),
            () -> append(reading(3, MAR3, "1").obis("1-0:1.8.0'; DROP TABLE lastgang; --"))),
        attack(
            "OBIS with a Unicode look-alike colon",
            INVALID,
            of("OBIS code"),
            () -> append(reading(3, MAR3, "1").obis("1-0\u02d01.8.0"))),
        attack(
            "operator of twelve digits",
            INVALID,
            of("market partner ID", "13 digits"),
            () -> append(reading(3, MAR3, "1").operator("990429200000"))),
        attack(
            "operator with a letter O for a zero",
            INVALID,
            of("market partner ID"),
            () -> append(reading(3, MAR3, "1").operator("99O4292000003"))),
        attack(
            "operator in full-width digits",
            INVALID,
            of("market partner ID"),
            () -> append(reading(3, MAR3, "1").operator("９９０４２９２０００００３"))),
        attack(
            "scope with spaces around the colon",
            INVALID,
            of("version_scope"),
            () -> append(reading(3, MAR3, "1").versionScope("9904292000003 : 2026-03"))),
        attack(
            "scope in lower case with a month name",
            INVALID,
            of("version_scope"),
            () -> append(reading(3, MAR3, "1").versionScope("9904292000003:2026-mar"))),
        attack(
            "scope of another balancing month",
            INVALID,
            of("version_scope", "does not cover"),
            () -> append(reading(3, MAR3, "1").versionScope("9904292000003:2026-04"))),
        attack(
            "MeLo in the Austrian dotted notation",
            INVALID,
            of("MeLo-ID"),
            () -> append(reading(3, MAR3, "1").melo("AT.0001.2345.6789.0123.4567.8901.2345"))),
        attack(
            "coded value in lower case",
            INVALID,
            of("tarif", "one of"),
            () -> append(reading(3, MAR3, "1").extra("tarif", "ht"))),
        attack(
            "coded value in Cyrillic look-alikes",
            INVALID,
            of("tarif", "one of"),
            () -> append(reading(3, MAR3, "1").extra("tarif", "\u041d\u0422"))),
        attack(
            "extra column name carrying SQL",
            INVALID,
            of("not declared"),
            () -> append(reading(3, MAR3, "1").extra("tarif\" text); DROP TABLE x; --", "HT"))),
        attack(
            "extra column name with a Cyrillic i",
            INVALID,
            of("not declared"),
            () -> append(reading(3, MAR3, "1").extra("tar\u0456f", "HT"))),
        attack(
            "an extra column set to null",
            INVALID,
            of("extra column tarif"),
            () -> append(reading(3, MAR3, "1").extra("tarif", null))),
        attack(
            "version of 21 digits",
            INVALID,
            of("version", "20 digits"),
            () -> append(reading(3, MAR3, "1").version("123456789012345678901"))),
        attack(
            "negative version",
            INVALID,
            of("version"),
            () -> append(reading(3, MAR3, "1").version("-20260301000000"))),
        // values
        attack(
            "NaN",
            INVALID,
            of("value", "finite"),
            () -> append(reading(3, MAR3, "1").value(Double.NaN))),
        attack(
            "positive infinity",
            INVALID,
            of("value", "finite"),
            () -> append(reading(3, MAR3, "1").value(Double.POSITIVE_INFINITY))),
        attack(
            "negative infinity",
            INVALID,
            of("value", "finite"),
            () -> append(reading(3, MAR3, "1").value(Double.NEGATIVE_INFINITY))),
        attack(
            "NaN as text",
            INVALID,
            of("value", "a decimal number"),
            () -> append(reading(3, MAR3, "NaN"))),
        attack(
            "seven decimals",
            INVALID,
            of("value", "at most 6 decimals"),
            () -> append(reading(3, MAR3, "0.0000001"))),
        attack(
            "nineteen digits",
            INVALID,
            of("value", "18 digits"),
            () -> append(reading(3, MAR3, "1234567890123456789"))),
        attack(
            "thirteen integer digits",
            INVALID,
            of("value", "18 digits"),
            () -> append(reading(3, MAR3, "-1000000000000"))),
        attack(
            "a huge exponent",
            INVALID,
            of("value", "18 digits"),
            () -> append(reading(3, MAR3, "1E+99999"))),
        // time
        attack(
            "to equal to from",
            INVALID,
            of("to", "after from"),
            () -> append(reading(3, MAR3, "1").interval(MAR3, MAR3))),
        attack(
            "to before from",
            INVALID,
            of("to", "after from"),
            () -> append(reading(3, MAR3, "1").interval(MAR3, MAR3.minusSeconds(900)))),
        attack(
            "interval misaligned with PT15M",
            INVALID,
            of("interval", "not aligned"),
            () ->
                append(
                    reading(3, MAR3, "1")
                        .interval(MAR3.plusSeconds(300), MAR3.plusSeconds(1200))
                        .resolution(Resolution.parse("PT15M")))),
        attack(
            "half-hour span declared PT15M",
            INVALID,
            of("interval", "not aligned"),
            () ->
                append(
                    reading(3, MAR3, "1")
                        .interval(MAR3, MAR3.plusSeconds(1800))
                        .resolution(Resolution.parse("PT15M")))),
        attack(
            "interval before 1970",
            INVALID,
            of("from", "1970"),
            () -> append(reading(3, Instant.parse("1969-12-31T22:00:00Z"), "1"))),
        attack(
            "interval after the year 9999",
            INVALID,
            of("from", "9999"),
            () -> append(reading(3, Instant.parse("+10000-01-01T00:00:00Z"), "1"))),
        attack(
            "point reading into the interval table",
            INVALID,
            of("lastgang", "INTERVAL"),
            () -> append(point(MAR3).toBuilder())),
        attack(
            "interval reading into the point table",
            INVALID,
            of("zaehlerstand", "POINT"),
            () ->
                catalog
                    .table("zaehlerstand")
                    .append(List.of(reading(3, MAR3, "1").melo(MELO).build()), NOW)),
        attack(
            "point reading without MeLo",
            INVALID,
            of("melo_id", "zaehlerstand"),
            () ->
                catalog
                    .table("zaehlerstand")
                    .append(List.of(point(MAR3).toBuilder().melo(null).build()), NOW)),
        // integrity, hot and cold
        attack(
            "value restated under a stored version (hot)",
            INTEGRITY,
            of("restates version"),
            () -> append(reading(1, MAR3, "9"))),
        attack(
            "value restated under a stored version (cold)",
            INTEGRITY,
            of("lastgang", "stored with another value"),
            () -> append(reading(1, MAR2, "9"))),
        attack(
            "spans overlapping within the batch",
            INTEGRITY,
            of("overlaps reading #0"),
            () ->
                catalog
                    .table("lastgang")
                    .append(
                        List.of(
                            span(3, MAR3.plusSeconds(7200), 1800).build(),
                            span(3, MAR3.plusSeconds(8100), 1800).build()),
                        NOW)),
        attack(
            "span overlapping a stored one (hot)",
            INTEGRITY,
            of("spans_do_not_overlap"),
            () -> append(span(1, MAR3.plusSeconds(300), 900))),
        attack(
            "span overlapping a stored one (cold)",
            INTEGRITY,
            of("overlap"),
            () -> append(span(1, MAR2.plusSeconds(300), 900))),
        attack(
            "second network operator (hot)",
            INTEGRITY,
            of("one_operator_per_reading"),
            () -> append(reading(1, MAR3, "2").version(V2).operator(OTHER_OPERATOR))),
        attack(
            "second network operator (cold)",
            INTEGRITY,
            of("operator"),
            () -> append(reading(1, MAR2, "2").version(V2).operator(OTHER_OPERATOR))),
        attack(
            "two operators within the batch",
            INTEGRITY,
            of("operator"),
            () ->
                catalog
                    .table("lastgang")
                    .append(
                        List.of(
                            reading(3, MAR3, "1").build(),
                            reading(3, MAR3, "1").version(V2).operator(OTHER_OPERATOR).build()),
                        NOW)),
        attack(
            "valid readings of both tiers then one restated",
            INTEGRITY,
            of("stored with another value"),
            () -> catalog.table("lastgang").append(mixed(20, reading(2, MAR2, "7").build()), NOW)),
        attack(
            "valid readings then one with the wrong time model",
            INVALID,
            of("INTERVAL"),
            () -> catalog.table("lastgang").append(mixed(20, point(MAR3)), NOW)),
        attack(
            "oversize batch: 5,000 valid readings then one restated",
            INTEGRITY,
            of("reading #5000", "restates version"),
            () ->
                catalog.table("lastgang").append(large(5_000, reading(1, MAR3, "8").build()), NOW)),
        attack(
            "a null inside the batch",
            INVALID,
            of("batch[1]", "a reading"),
            () ->
                catalog
                    .table("lastgang")
                    .append(Arrays.asList(reading(3, MAR3, "1").build(), null), NOW)),
        // privacy
        attack(
            "subject reference of another year",
            INVALID,
            of("subject_year_matches_reading", "2025"),
            () ->
                catalog
                    .table("privat")
                    .append(List.of(reading(3, MAR3, "1").subject(subject2025).build()), NOW)),
        attack(
            "subject reference never registered",
            INVALID,
            of("subject_is_registered"),
            () ->
                catalog
                    .table("privat")
                    .append(
                        List.of(
                            reading(3, MAR3, "1").subject("s2026_Qm9zY2hLb2NoUGFyYWRpZQ").build()),
                        NOW)),
        attack(
            "subject on a table without a subject column",
            INVALID,
            of("subject column"),
            () -> append(reading(3, MAR3, "1").subject(subject2025))),
        // tables, the floor, purge
        attack(
            "table name carrying SQL",
            INVALID,
            of("lastgang\"; DROP"),
            () ->
                catalog
                    .table("lastgang\"; DROP TABLE meterstore.lastgang; --")
                    .append(List.of(reading(3, MAR3, "1").build()), NOW)),
        attack(
            "table name with a Cyrillic a",
            INVALID,
            of("l\u0430stgang"),
            () ->
                catalog.table("l\u0430stgang").append(List.of(reading(3, MAR3, "1").build()), NOW)),
        attack(
            "hot writer below W",
            INVALID,
            of("floor", "append"),
            () ->
                catalog
                    .table("lastgang")
                    .hotWriter()
                    .write(List.of(reading(3, MAR2, "1").build()), NOW)),
        attack(
            "purge confirmed with a trailing space",
            INVALID,
            of("lastgang"),
            () -> catalog.table("lastgang").purge("lastgang ")),
        attack(
            "purge of a name carrying SQL",
            INVALID,
            of("declared tables"),
            () ->
                catalog
                    .table("lastgang; DROP SCHEMA meterstore CASCADE")
                    .purge("lastgang; DROP SCHEMA meterstore CASCADE")),
        // table definitions
        attack(
            "table definition carrying SQL",
            INVALID,
            of("table name"),
            () -> TableDefinition.interval("x\"; DROP SCHEMA meterstore CASCADE; --")),
        attack(
            "table definition in upper case",
            INVALID,
            of("table name", "lowercase"),
            () -> TableDefinition.interval("Lastgang")),
        attack(
            "table definition with a Cyrillic a",
            INVALID,
            of("table name"),
            () -> TableDefinition.interval("l\u0430stgang")),
        attack(
            "table definition of 35 characters",
            INVALID,
            of("table name", "34"),
            () -> TableDefinition.interval("a".repeat(35))),
        attack(
            "extra column carrying a quote",
            INVALID,
            of("column name"),
            () -> ExtraColumn.attribute("a\"b")),
        attack(
            "extra column with a semicolon",
            INVALID,
            of("column name"),
            () -> ExtraColumn.identity("tenant; DROP TABLE x")),
        attack(
            "extra column shadowing a standard column",
            INVALID,
            of("column name", "clashes"),
            () -> ExtraColumn.attribute("from")),
        attack(
            "subject column carrying SQL",
            INVALID,
            of("subject column"),
            () -> TableDefinition.interval("t").withSubjectColumn("s' OR '1'='1")));
  }

  // ---------------------------------------------------------------- configuration

  static Stream<Arguments> configurations() {
    return Stream.of(
        config(
            "duplicate key", of("Invalid TOML"), tables("name = \"lastgang\"\nname = \"other\"\n")),
        config(
            "duplicate [hot] table", of("Invalid TOML"), baseToml("") + "\n[hot]\npool_size = 2\n"),
        config("pool size as a string", of("hot.pool_size"), hot("pool_size = \"8\"")),
        config("pool size as a float", of("hot.pool_size"), hot("pool_size = 1.5")),
        config(
            "pool size beyond a long",
            of("hot.pool_size"),
            hot("pool_size = 99999999999999999999999999")),
        config("misspelt key", of("Unknown key hot.passwort"), hot("passwort = \"x\"")),
        config("unknown section", of("Unknown key hott"), baseToml("") + "\n[hott]\nurl = \"x\"\n"),
        config(
            "tables as a number",
            of("tables"),
            baseToml("").replaceAll("(?s)\\[\\[tables]].*", "") + "tables = 5\n"),
        config(
            "a bare-number duration",
            of("tables[0].settlement_lag", "unit"),
            tables("name = \"t\"\nsettlement_lag = 30\n")),
        config(
            "a duration that overflows",
            of("tables[0].settlement_lag"),
            tables("name = \"t\"\nsettlement_lag = \"" + "999999999999d".repeat(120) + "\"\n")),
        config(
            "a period that overflows",
            of("tables[0].snapshot_retention"),
            tables("name = \"t\"\nsnapshot_retention = \"2147483647y2147483647y\"\n")),
        config(
            "an ISO duration beyond a long",
            of("tables[0].reader_grace"),
            tables("name = \"t\"\nreader_grace = \"PT99999999999999999999H\"\n")),
        config(
            "a size that overflows",
            of("cold.target_file_size"),
            baseToml("").replace("[cold]\n", "[cold]\ntarget_file_size = \"999999999999GiB\"\n")),
        config(
            "table name carrying SQL",
            of("tables[0]", "table name"),
            tables("name = \"lastgang\\\"; DROP SCHEMA meterstore CASCADE; --\"\n")),
        config(
            "table name with a Cyrillic a",
            of("tables[0]", "table name"),
            tables("name = \"l\u0430stgang\"\n")),
        config(
            "extra column carrying SQL",
            of("tables[0].extra_columns[0]", "column name"),
            tables("name = \"t\"\n[[tables.extra_columns]]\nname = \"a\\\" text); --\"\n")),
        config(
            "extra column with a Greek omicron",
            of("tables[0].extra_columns[0]", "column name"),
            tables("name = \"t\"\n[[tables.extra_columns]]\nname = \"ten\u03bfnt\"\n")),
        config(
            "role spelt with a dotless i",
            of("tables[0].extra_columns[0].role"),
            tables(
                "name = \"t\"\n[[tables.extra_columns]]\nname = \"c\"\nrole = \"\u0131dentity\"\n")),
        config(
            "check spelt with a dotless i",
            of("tables[0].extra_columns[0].check"),
            tables(
                "name = \"t\"\n[[tables.extra_columns]]\nname = \"c\"\nrole = \"checked\"\n"
                    + "check = \"e\u0131c\"\n")),
        config(
            "schema carrying SQL",
            of("hot.schema"),
            hot("schema = \"meterstore; DROP SCHEMA public CASCADE\"")),
        config("schema in a pg_ namespace", of("hot.schema"), hot("schema = \"pg_catalog\"")),
        config(
            "namespace carrying SQL",
            of("cold"),
            baseToml("").replace("[cold]\n", "[cold]\nnamespace = \"ns'; DROP TABLE x; --\"\n")),
        config(
            "an unset variable",
            of("hot.user", "METERSTORE_UNSET"),
            hot("user = \"${METERSTORE_UNSET}\"")),
        config(
            "an unfinished variable",
            of("hot.user", "unfinished"),
            hot("user = \"${METERSTORE_USER\"")),
        config(
            "a variable whose value is SQL, as a table name",
            of("tables[0]", "table name"),
            tables("name = \"${INJECT}\"\n")),
        config(
            "a variable whose value is a secret, echoed by a rule",
            of("hot.detach_mode"),
            hot("detach_mode = \"${PGSECRET}\"")),
        config(
            "a variable whose value is a secret, as a table name",
            of("tables[0]", "table name"),
            tables("name = \"${PGSECRET}\"\n")),
        config(
            "a literal ${ kept by $${",
            of("tables[0]", "table name"),
            tables("name = \"$${INJECT}\"\n")),
        config(
            "a hot url of another driver",
            of("hot.url"),
            baseToml("")
                .replaceFirst(
                    "url = \"[^\"]*\"",
                    "url = \"jdbc:mysql://meter:" + SECRET + "@db/m?password=" + SECRET + "\"")),
        config(
            "unterminated string holding a secret",
            of("Invalid TOML"),
            hot("password = \"" + SECRET)),
        config(
            "two tables of one name",
            of("lastgang"),
            baseToml("") + "\n[[tables]]\nname = \"lastgang\"\n"),
        config(
            "an archival step that does not divide a day",
            of("tables[0]", "archival_step"),
            tables("name = \"t\"\narchival_step = \"7m\"\n")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("readings")
  void aHostileWriteIsRefusedTypedWritesNothingAndTheStoreStaysHealthy(Attack attack)
      throws Exception {
    refusedWithNothingWritten(attack);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("configurations")
  void aHostileConfigurationIsRefusedTypedAndTouchesNothing(Attack attack) throws Exception {
    refusedWithNothingWritten(attack);
  }

  @Test
  void theValidCasesTheAttacksVaryAreAccepted() {
    WriteResult r =
        catalog
            .table("lastgang")
            .append(
                List.of(
                    reading(4, MAR3, "1").build(),
                    reading(4, MAR2, "1").build(),
                    reading(4, MAR3.plusSeconds(900), "0.000001").extra("tarif", "HT").build()),
                NOW);
    assertThat(r.outcomes()).containsOnly(WriteOutcome.INSERTED);
    assertThat(r.tiers()).containsExactly(Tier.HOT, Tier.COLD, Tier.HOT);
    assertThat(catalog.table("zaehlerstand").append(List.of(point(MAR3)), NOW).outcomes())
        .containsOnly(WriteOutcome.INSERTED);
  }

  private static void refusedWithNothingWritten(Attack attack) throws Exception {
    StoreState.Snapshot before = state.snapshot();

    Throwable thrown = catchThrowable(attack.action()::run);

    assertThat(thrown)
        .as(attack.name())
        .isInstanceOfSatisfying(
            MeterStoreException.class,
            e -> {
              assertThat(e.kind()).as("kind of: %s", e.getMessage()).isEqualTo(attack.kind());
              assertThat(e.isRetryable()).isFalse();
              for (String fragment : attack.fragments()) {
                assertThat(e.getMessage()).contains(fragment);
              }
            });
    assertThat(Secrets.everyMessage(thrown)).doesNotContain(SECRET);
    assertThat(state.snapshot()).as("the store after: " + attack.name()).isEqualTo(before);
    stillHealthy();
  }

  /** A valid reading is accepted after the attack and every table is healthy. */
  private static void stillHealthy() throws Exception {
    int n = probes.incrementAndGet();
    WriteResult r =
        catalog
            .table("lastgang")
            .append(
                List.of(reading(7, MAR4.plus(Duration.ofMinutes(15L * n)), "0.25").build()), NOW);
    assertThat(r.outcomes()).containsExactly(WriteOutcome.INSERTED);
    assertThat(state.health(NOW)).allSatisfy((table, healthy) -> assertThat(healthy).isTrue());
  }

  // ---------------------------------------------------------------- building blocks

  static final ErrorKind INVALID = ErrorKind.INVALID_INPUT;
  static final ErrorKind INTEGRITY = ErrorKind.INTEGRITY_VIOLATION;

  /** One attack: what it is, how it must be refused, and what it does. */
  record Attack(String name, ErrorKind kind, List<String> fragments, Action action) {}

  @FunctionalInterface
  interface Action {
    void run() throws Exception;
  }

  static List<String> of(String... fragments) {
    return List.of(fragments);
  }

  static Arguments attack(String name, ErrorKind kind, List<String> fragments, Action action) {
    return Arguments.of(Named.of(name, new Attack(name, kind, fragments, action)));
  }

  static Arguments config(String name, List<String> fragments, String toml) {
    Action open =
        () -> {
          Path file = Files.createTempFile(dir, "hostile", ".toml");
          Files.writeString(file, toml, StandardCharsets.UTF_8);
          Map<String, String> env =
              Map.of("INJECT", "x\"; DROP SCHEMA meterstore CASCADE; --", "PGSECRET", SECRET);
          try (MeterCatalog opened =
              MeterStores.open(MeterStoreConfig.load(file, env), OpenTelemetry.noop())) {
            throw new AssertionError("opened: " + opened);
          }
        };
    return attack("toml: " + name, ErrorKind.CONFIG, fragments, open);
  }

  /** The deployment's TOML with {@code hotExtra} added to {@code [hot]}. */
  static String baseToml(String hotExtra) {
    return "[hot]\nurl = \""
        + db.jdbcUrl()
        + "\"\nuser = \""
        + db.user()
        + "\"\npassword = \""
        + db.password()
        + "\"\npool_size = 4\n"
        + hotExtra
        + "\n[cold]\nwarehouse = \""
        + dir.resolve("warehouse").toUri()
        + "\"\n\n[[tables]]\nname = \"lastgang\"\nsettlement_lag = \"1d\"\nreader_grace = \"1h\"\n"
        + "[[tables.extra_columns]]\nname = \"tarif\"\nrole = \"coded\"\nvalues = [\"HT\", \"NT\"]\n"
        + "\n[[tables]]\nname = \"zaehlerstand\"\ntime_model = \"point\"\nsettlement_lag = \"1d\"\n"
        + "[[tables.extra_columns]]\nname = \"tarif\"\nrole = \"coded\"\nvalues = [\"HT\", \"NT\"]\n"
        + "\n[[tables]]\nname = \"privat\"\nsubject_column = \"subject\"\nsettlement_lag = \"1d\"\n"
        + "[[tables.extra_columns]]\nname = \"tarif\"\nrole = \"coded\"\nvalues = [\"HT\", \"NT\"]\n";
  }

  /** The deployment's TOML with {@code line} in {@code [hot]}, replacing the key it sets. */
  static String hot(String line) {
    String key = line.substring(0, line.indexOf('=')).strip();
    return baseToml(line + "\n")
        .replaceFirst("(?m)^" + key + " = .*\\n(?=(?s).*^" + key + " = )", "");
  }

  /** The deployment's TOML whose first table is replaced by {@code body}. */
  static String tables(String body) {
    String base = baseToml("");
    int first = base.indexOf("[[tables]]");
    return base.substring(0, first) + "[[tables]]\n" + body;
  }

  static ReadingBuilder reading(int meter, Instant from, String value) {
    return Reading.builder()
        .malo(Workload.malo(meter))
        .obis("1-0:1.8.0")
        .commodity(Commodity.STROM)
        .interval(from, from.plus(Duration.ofMinutes(15)))
        .value(value)
        .version(V1)
        .operator(Workload.OPERATOR);
  }

  static ReadingBuilder span(int meter, Instant from, long seconds) {
    return reading(meter, from, "1").interval(from, from.plusSeconds(seconds));
  }

  static Reading point(Instant at) {
    return Reading.builder()
        .malo(Workload.malo(3))
        .melo(MELO)
        .obis("1-0:1.8.0")
        .commodity(Commodity.STROM)
        .interval(at, (Instant) null)
        .value("12345.5")
        .version(V1)
        .operator(Workload.OPERATOR)
        .build();
  }

  static void append(ReadingBuilder builder) {
    catalog.table("lastgang").append(List.of(builder.build()), NOW);
  }

  /** {@code n} valid new readings, half cold (2 March) and half hot (3 March), then {@code bad}. */
  static List<Reading> mixed(int n, Reading bad) {
    List<Reading> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Instant day = i % 2 == 0 ? MAR2 : MAR3;
      out.add(reading(5, day.plus(Duration.ofMinutes(15L * (10 + i / 2))), "3").build());
    }
    out.add(bad);
    return out;
  }

  /** {@code n} valid new hot readings over many meters of 3 March, then {@code bad}. */
  static List<Reading> large(int n, Reading bad) {
    List<Reading> out = new ArrayList<>(n + 1);
    for (int i = 0; i < n; i++) {
      out.add(reading(100 + i / 96, MAR3.plus(Duration.ofMinutes(15L * (i % 96))), "1").build());
    }
    out.add(bad);
    return out;
  }

  static final Set<String> UNUSED = Set.of();
}
