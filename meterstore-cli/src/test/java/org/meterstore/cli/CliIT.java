package org.meterstore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.opentelemetry.api.OpenTelemetry;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.meterstore.MeterCatalog;
import org.meterstore.MeterStores;
import org.meterstore.Tiers;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.Tier;
import org.meterstore.cli.demo.DemoMonth;
import org.meterstore.cli.output.ExitCode;
import org.meterstore.config.MeterStoreConfig;
import org.meterstore.hot.subject.SubjectRef;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * Every verb in-process against a real store: the test database as the hot tier (and the JDBC
 * Iceberg catalog) and a warehouse under target/. The methods run in order, like an operator's
 * session: create, write ten days, status, archive, maintain, query, purge.
 */
@ExtendWith(PostgresExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CliIT {
  private static final String CREATED = "2026-03-01T00:00:00Z";
  private static final String EARLY = "2026-03-12T12:00:00Z";
  private static final String LATER = "2026-03-25T12:00:00Z";
  private static final String LATER_STILL = "2026-03-25T14:00:00Z";
  private static final YearMonth MARCH = YearMonth.of(2026, 3);
  private static final String SECRET = "s3cr3t-not-to-be-printed";

  private static Path dir;
  private static Path config;
  private static TestDatabase db;
  private static Cli cli;

  @BeforeAll
  static void writeConfig(TestDatabase database) throws IOException {
    db = database;
    dir =
        Files.createDirectories(
            Path.of("target", "cli-it", "run-" + ProcessHandle.current().pid()));
    config = dir.resolve("meterstore.toml");
    Files.writeString(config, toml(db, dir.resolve("warehouse"), ""));
    cli = new Cli(config);
  }

  static String toml(TestDatabase db, Path warehouse, String extra) {
    return "[hot]\n"
        + "url = \""
        + db.jdbcUrl()
        + "\"\n"
        + "user = \""
        + db.user()
        + "\"\n"
        + "password = \""
        + db.password()
        + "\"\n"
        + "ddl_lock_timeout = \"3s\"\n"
        + "[cold]\n"
        + "catalog = \"jdbc\"\n"
        + "warehouse = \""
        + warehouse.toAbsolutePath().toUri()
        + "\"\n"
        + "[privacy]\n"
        + "[privacy.erasure_keys]\n"
        + "k1 = \""
        + java.util.Base64.getEncoder().encodeToString(new byte[32])
        + "\"\n"
        + "[[tables]]\n"
        + "name = \"strom\"\n"
        + "settlement_lag = \"2d\"\n"
        + "[[tables]]\n"
        + "name = \"gas\"\n"
        + "settlement_lag = \"2d\"\n"
        + extra;
  }

  @Test
  @Order(1)
  void checkBeforeCreateNamesTheMissingTables() {
    Cli.Run run = cli.run("--format", "json", "check");
    assertThat(run.code()).as(run.toString()).isEqualTo(ExitCode.ERROR);
    JsonNode json = run.json();
    assertThat(json.get("ok").asBoolean()).isFalse();
    assertThat(json.get("tables")).hasSize(2);
    assertThat(json.get("tables").get(0).get("hot").asText()).isEqualTo("missing");
    assertThat(run.err()).contains("strom: missing", "meterstore create");
  }

  @Test
  @Order(2)
  void createMakesBothTablesInBothTiersAndCheckPasses() {
    Cli.Run create = cli.run("--format", "json", "create", "--now", CREATED);
    assertThat(create.code()).as(create.toString()).isZero();
    assertThat(create.json().get("created").get(1).get("table").asText()).isEqualTo("gas");

    Cli.Run check = cli.run("check", "--format", "json");
    assertThat(check.code()).as(check.toString()).isZero();
    JsonNode tables = check.json().get("tables");
    assertThat(tables.get(0).get("hot").asText()).isEqualTo("present");
    assertThat(tables.get(1).get("cold").asText()).isEqualTo("present");
    assertThat(tables.get(1).get("schema").asText()).isEqualTo("compatible");
  }

  @Test
  @Order(3)
  void statusIsHealthyAfterTenDaysOfWrites() throws Exception {
    writeDays(1, 10);
    Cli.Run run = cli.run("--format", "json", "status", "--now", EARLY);
    assertThat(run.code()).as(run.toString()).isZero();
    JsonNode json = run.json();
    assertThat(json.get("healthy").asBoolean()).isTrue();
    assertThat(json.get("now").asText()).isEqualTo(EARLY);
    JsonNode strom = json.get("tables").get(0);
    assertThat(strom.get("table").asText()).isEqualTo("strom");
    assertThat(strom.get("watermark").asText()).isEqualTo("1970-01-01T00:00:00Z");
    assertThat(strom.get("invariant_violations").asLong()).isZero();
    assertThat(strom.get("partitions_ahead").asLong()).isPositive();
    assertThat(strom.get("healthy").asBoolean()).isTrue();
    assertThat(json.get("problems")).isEmpty();
  }

  @Test
  @Order(4)
  void archiveStopsAtMaxWindowsThenCatchesUp() {
    Cli.Run first = cli.run("--format", "json", "archive", "--now", LATER, "--max-windows", "3");
    assertThat(first.code()).as(first.toString()).isZero();
    assertThat(first.json().get("windows_archived").asInt()).isEqualTo(6);
    JsonNode strom = first.json().get("tables").get(0);
    assertThat(strom.get("status").asText()).isEqualTo("ARCHIVED");
    assertThat(strom.get("windows_archived").asInt()).isEqualTo(3);
    assertThat(strom.get("rows_archived").asLong()).isPositive();

    Cli.Run rest = cli.run("--format", "json", "archive", "--now", LATER);
    assertThat(rest.code()).as(rest.toString()).isZero();
    // the written days and the empty partitions of the headroom created on 1 March
    assertThat(rest.json().get("windows_archived").asInt()).isGreaterThan(2 * (11 - 3));
    // issue #19 item 9: a run that archived windows, then found nothing more due, says ARCHIVED
    for (JsonNode table : rest.json().get("tables")) {
      assertThat(table.get("windows_archived").asInt()).isPositive();
      assertThat(table.get("status").asText()).as(table.toString()).isEqualTo("ARCHIVED");
    }
    Cli.Run none = cli.run("--format", "json", "archive", "--now", LATER);
    assertThat(none.json().get("tables").get(1).get("status").asText()).isEqualTo("NOTHING_DUE");
  }

  @Test
  @Order(5)
  void maintainOnceRunsOneCycle() {
    Cli.Run run =
        cli.run(
            "--format",
            "json",
            "maintain",
            "--once",
            "--now",
            LATER,
            "--expire-snapshots",
            "--compact");
    assertThat(run.code()).as(run.toString()).isZero();
    JsonNode json = run.json();
    assertThat(json.get("healthy").asBoolean()).isTrue();
    assertThat(json.get("tables"))
        .extracting(t -> t.get("table").asText())
        .containsExactly("strom", "gas");
    Cli.Run off = cli.run("--format", "json", "maintain", "--once", "--now", LATER, "--no-compact");
    assertThat(off.code()).as(off.toString()).isZero();
    for (JsonNode table : off.json().get("tables")) {
      assertThat(table.get("files_rewritten").asLong()).as(table.toString()).isZero();
    }
    // --compact is accepted and reported per table (March, where W lies, is never compacted)
    for (JsonNode table : json.get("tables")) {
      assertThat(table.has("files_rewritten") && table.has("bytes_rewritten"))
          .as(table.toString())
          .isTrue();
      assertThat(table.get("files_written").asLong())
          .isLessThanOrEqualTo(table.get("files_rewritten").asLong());
    }
  }

  @Test
  @Order(6)
  void reassertWatermarkIsANoOpWhenTheSnapshotCarriesIt() {
    Cli.Run run =
        cli.run("--format", "json", "reassert-watermark", "--table", "strom", "--now", LATER);
    assertThat(run.code()).as(run.toString()).isZero();
    JsonNode row = run.json().get("tables").get(0);
    assertThat(row.get("restamped").asBoolean()).isFalse();
    assertThat(row.get("watermark").asText()).isEqualTo(watermark("strom"));

    Cli.Run unknown = cli.run("reassert-watermark", "--table", "wasser", "--now", LATER);
    assertThat(unknown.code()).isEqualTo(ExitCode.ERROR);
    assertThat(unknown.err()).contains("wasser").doesNotContain("\tat ");
  }

  @Test
  @Order(7)
  void queryPrintsDecimalsAsStringsOverBothTiers() {
    String sql =
        "SELECT sparte, COUNT(*) AS readings, SUM(\"value\") AS energy FROM strom"
            + " GROUP BY sparte";
    Cli.Run run = cli.run("--format", "json", "query", sql);
    assertThat(run.code()).as(run.toString()).isZero();
    JsonNode json = run.json();
    assertThat(json.get("row_count").asInt()).isEqualTo(1);
    JsonNode row = json.get("rows").get(0);
    assertThat(row.get("sparte").asText()).isEqualTo("STROM");
    assertThat(row.get("readings").isIntegralNumber()).isTrue();
    assertThat(row.get("energy").isTextual()).isTrue();
    assertThat(new java.math.BigDecimal(row.get("energy").asText())).isPositive();
    assertThat(json.get("columns").get(2).get("type").asText()).isEqualTo("DECIMAL");

    Cli.Run fromStdin =
        cli.runWithInput(
            "SELECT MIN(\"from\") AS first FROM gas;\n", "--format", "json", "query", "-");
    assertThat(fromStdin.code()).as(fromStdin.toString()).isZero();
    assertThat(fromStdin.json().get("rows").get(0).get("first").asText())
        .isEqualTo("2026-03-01T05:00:00Z");

    Cli.Run table = cli.run("query", sql);
    assertThat(table.out().lines().toList().get(0)).matches("sparte +readings +energy");
  }

  @Test
  @Order(8)
  void aRefusedStatementExitsWithOneLine() {
    Cli.Run run = cli.run("query", "DELETE FROM strom");
    assertThat(run.code()).isEqualTo(ExitCode.ERROR);
    assertThat(run.err().lines().count()).isEqualTo(1);
    assertThat(run.out()).isEmpty();

    // Issue #19 reproduction 4: a 35-line stack trace, and "read-only" for a typo.
    Cli.Run division = cli.run("query", "SELECT 1/0 FROM strom LIMIT 1");
    assertThat(division.code()).as(division.toString()).isEqualTo(ExitCode.ERROR);
    assertThat(division.err().lines().count()).as(division.toString()).isEqualTo(1);
    assertThat(division.err()).containsIgnoringCase("division by zero").doesNotContain("\tat ");
    Cli.Run typo = cli.run("query", "SELEKT 1");
    assertThat(typo.code()).isEqualTo(ExitCode.ERROR);
    assertThat(typo.err().lines().count()).as(typo.toString()).isEqualTo(1);
    assertThat(typo.err())
        .contains("syntax error at line 1, column 1", "SELEKT")
        .doesNotContain("read-only");
  }

  @Test
  @Order(9)
  void explainShowsThePlan() {
    Cli.Run run =
        cli.run(
            "--format",
            "json",
            "explain",
            "SELECT COUNT(*) FROM strom WHERE \"from\" >= TIMESTAMP" + " '2026-03-09 00:00:00'");
    assertThat(run.code()).as(run.toString()).isZero();
    assertThat(run.json().get("plan").size()).isPositive();
    assertThat(run.json().get("plan").toString()).containsIgnoringCase("strom");

    Cli.Run table =
        cli.run("explain", "SELECT * FROM strom WHERE malo_id = '51238696781' AND \"value\" > 1");
    assertThat(table.code()).as(table.toString()).isZero();
    assertThat(table.out().lines())
        .allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(120));
    assertThat(table.out()).containsIgnoringCase("strom");
  }

  @Test
  @Order(10)
  void completenessCountsTheDstDayAndTheSilentDays() {
    Cli.Run run =
        cli.run(
            "--format",
            "json",
            "completeness",
            "--table",
            "strom",
            "--from",
            "2026-03-01",
            "--to",
            "2026-03-12");
    assertThat(run.code()).as(run.toString()).isZero();
    JsonNode json = run.json();
    assertThat(json.get("complete").asBoolean()).isFalse();
    List<String> statuses = new ArrayList<>();
    json.get("summary").forEach(r -> statuses.add(r.get("status").asText()));
    assertThat(statuses).containsExactlyInAnyOrder("COMPLETE", "SILENT");
    assertThat(json.get("series_days").get(0).get("balancing_day").asText())
        .isEqualTo("2026-03-11");
  }

  @Test
  @Order(11)
  void snapshotsCarryTheWatermarks() {
    Cli.Run run = cli.run("--format", "json", "snapshots", "--table", "gas", "--now", LATER);
    assertThat(run.code()).as(run.toString()).isZero();
    JsonNode snapshots = run.json().get("snapshots");
    assertThat(snapshots.size()).isGreaterThanOrEqualTo(11);
    snapshots.forEach(s -> assertThat(s.get("table").asText()).isEqualTo("gas"));
    assertThat(snapshots.get(snapshots.size() - 1).get("watermark").asText())
        .isEqualTo(watermark("gas"));
  }

  @Test
  @Order(12)
  void erasuresListTheTrailWithoutNaturalIds() {
    Instant now = Instant.parse(LATER);
    try (MeterCatalog catalog = open()) {
      SubjectRef ref =
          catalog
              .subjects()
              .registerSubject("kunde-4711", Instant.parse(CREATED), Commodity.STROM, now);
      catalog.subjects().eraseSubject(ref, "Art. 17 request 2026-17", "support", now);
    }
    Cli.Run run = cli.run("--format", "json", "erasures", "--now", LATER);
    assertThat(run.code()).as(run.toString()).isZero();
    JsonNode entry = run.json().get("erasures").get(0);
    assertThat(entry.get("trigger").asText()).isEqualTo("request");
    assertThat(entry.get("reason").asText()).isEqualTo("Art. 17 request 2026-17");
    assertThat(entry.get("references").get(0).asText()).startsWith("s2026_");
    assertThat(run.out()).doesNotContain("kunde-4711");
  }

  @Test
  @Order(13)
  void statusNamesStrandedRowsAndAnExhaustedRunway() throws Exception {
    // two hours on, the archived partitions are past reader_grace and reclaimed
    assertThat(cli.run("maintain", "--once", "--now", LATER_STILL).code()).isZero();
    try (MeterCatalog catalog = open()) {
      // A hot row below W is what a writer of a MeterStore without the hot floor could leave:
      // forget the floor (as before migration 5), then write straight into the hot tier (append
      // would route the row to Iceberg as a late correction).
      try (java.sql.Connection c = db.connect();
          java.sql.Statement s = c.createStatement()) {
        s.executeUpdate("UPDATE meterstore.tables SET hot_floor = NULL WHERE name = 'gas'");
      }
      Tiers.hot(catalog)
          .write(
              catalog.table("gas").definition(),
              day(LocalDate.of(2026, 3, 2), DemoMonth.GAS),
              Instant.parse(LATER));
    }
    Cli.Run stranded = cli.run("--format", "json", "status", "--now", LATER_STILL);
    assertThat(stranded.code()).as(stranded.toString()).isEqualTo(ExitCode.ERROR);
    JsonNode problem = stranded.json().get("problems").get(0);
    assertThat(problem.get("table").asText()).isEqualTo("gas");
    assertThat(problem.get("problem").asText()).isEqualTo("stranded_rows");
    assertThat(stranded.err()).contains("table gas: stranded_rows");

    Cli.Run runway = cli.run("status", "--now", "2027-06-01T00:00:00Z");
    assertThat(runway.code()).isEqualTo(ExitCode.ERROR);
    assertThat(runway.err()).contains("table strom: exhausted_runway");
  }

  /**
   * A file nothing references (a commit that never landed) is listed by {@code orphans}, kept by
   * the listing, refused for deletion below the minimum age, and deleted by {@code --delete}; the
   * table's own files are never candidates.
   */
  @Test
  @Order(13)
  void orphansListsThenDeletesAFileNothingReferences() throws Exception {
    List<Path> before = dataFiles("strom");
    assertThat(before).isNotEmpty();
    Path debris = before.get(0).resolveSibling("00000-0-never-committed-00001.parquet");
    Files.write(debris, new byte[] {'P', 'A', 'R', '1'});
    Files.setLastModifiedTime(
        debris, java.nio.file.attribute.FileTime.from(Instant.parse(CREATED)));

    Cli.Run listed = cli.run("--format", "json", "orphans", "--table", "strom", "--now", LATER);
    assertThat(listed.code()).as(listed.toString()).isZero();
    JsonNode files = listed.json().get("files");
    assertThat(files.size()).as(listed.toString()).isEqualTo(1);
    assertThat(files.get(0).get("file").asText()).endsWith(debris.getFileName().toString());
    assertThat(files.get(0).get("deleted").asBoolean()).isFalse();
    assertThat(listed.json().get("dry_run").asBoolean()).isTrue();
    assertThat(debris).exists();

    Cli.Run tooYoung =
        cli.run("orphans", "--table", "strom", "--now", LATER, "--delete", "--min-age", "10m");
    assertThat(tooYoung.code()).isEqualTo(ExitCode.ERROR);
    assertThat(tooYoung.toString()).contains("orphan minimum age");
    assertThat(debris).exists();

    Cli.Run deleted =
        cli.run("--format", "json", "orphans", "--table", "strom", "--now", LATER, "--delete");
    assertThat(deleted.code()).as(deleted.toString()).isZero();
    assertThat(deleted.json().get("files").get(0).get("deleted").asBoolean()).isTrue();
    assertThat(debris).doesNotExist();
    assertThat(dataFiles("strom")).containsExactlyInAnyOrderElementsOf(before);
  }

  /**
   * A state pin from the command line: {@code pin} prints S, W, id and expiry, {@code pins} lists
   * it with its holder, {@code unpin} removes it; a bad ttl is refused and pins nothing.
   */
  @Test
  @Order(13)
  void pinListsAndUnpinsAStatePin() throws Exception {
    Cli.Run refused =
        cli.run("pin", "--table", "strom", "--ttl", "8d", "--holder", "job", "--now", LATER);
    assertThat(refused.code()).as(refused.toString()).isEqualTo(ExitCode.ERROR);
    assertThat(refused.err()).contains("pin ttl");

    Cli.Run pinned =
        cli.run(
            "--format",
            "json",
            "pin",
            "--table",
            "strom",
            "--ttl",
            "6h",
            "--holder",
            "spark settlement",
            "--now",
            LATER);
    assertThat(pinned.code()).as(pinned.toString()).isZero();
    long id = pinned.json().get("id").asLong();
    assertThat(pinned.json().get("holder").asText()).isEqualTo("spark settlement");
    assertThat(pinned.json().get("expires_at").asText()).isEqualTo("2026-03-25T18:00:00Z");
    String w = pinned.json().get("watermark").asText();
    try (MeterCatalog catalog = open()) {
      assertThat(catalog.table("strom").watermark().toString()).isEqualTo(w);
    }

    Cli.Run listed = cli.run("--format", "json", "pins", "--now", LATER);
    assertThat(listed.code()).as(listed.toString()).isZero();
    JsonNode pins = listed.json().get("pins");
    assertThat(pins.size()).isEqualTo(1);
    assertThat(pins.get(0).get("id").asLong()).isEqualTo(id);
    assertThat(pins.get(0).get("table").asText()).isEqualTo("strom");

    Cli.Run unpinned = cli.run("unpin", "--table", "strom", "--id", Long.toString(id));
    assertThat(unpinned.code()).as(unpinned.toString()).isZero();
    Cli.Run none = cli.run("--format", "json", "pins", "--table", "strom", "--now", LATER);
    assertThat(none.json().get("pins").size()).isZero();
  }

  @Test
  @Order(14)
  void purgeWithAWrongConfirmationTouchesNothing() throws Exception {
    Cli.Run run = cli.run("purge", "--table", "gas", "--confirm", "strom");
    assertThat(run.code()).as(run.toString()).isEqualTo(ExitCode.ERROR);
    assertThat(run.err()).contains("nothing was purged");
    assertThat(hotRelations("gas")).isNotEmpty();
    assertThat(dataFiles("gas")).isNotEmpty();
    try (MeterCatalog catalog = open()) {
      assertThat(Tiers.cold(catalog).catalog().tableExists(Tiers.cold(catalog).identifier("gas")))
          .isTrue();
    }
  }

  @Test
  @Order(15)
  void purgeWithTheRightConfirmationRemovesBothTiersAndTheFiles() throws Exception {
    List<String> before = hotRelations("strom");
    Cli.Run run = cli.run("--format", "json", "purge", "--table", "gas", "--confirm", "gas");
    assertThat(run.code()).as(run.toString()).isZero();
    JsonNode json = run.json();
    assertThat(json.get("cold_table_dropped").asBoolean()).isTrue();
    assertThat(json.get("hot_relations_dropped").asInt()).isPositive();
    assertThat(hotRelations("gas")).isEmpty();
    assertThat(dataFiles("gas")).isEmpty();
    try (MeterCatalog catalog = open()) {
      assertThat(Tiers.cold(catalog).catalog().tableExists(Tiers.cold(catalog).identifier("gas")))
          .isFalse();
    }
    assertThat(hotRelations("strom")).isEqualTo(before);
    assertThat(dataFiles("strom")).isNotEmpty();
  }

  /**
   * Issue #19 reproduction 5: after {@code purge}, with the table still in the file, status, a
   * query, archival and maintenance used to re-create an empty Iceberg table and then say "call
   * createTables first". Each now refuses, names the table and what to do, and creates nothing.
   */
  @Test
  @Order(16)
  void aPurgedTableStillInTheFileStaysPurgedAndEveryVerbSaysWhatToDo() throws Exception {
    String remedy = "remove it from the configuration file, or run 'meterstore create'";

    Cli.Run status = cli.run("--format", "json", "status", "--now", LATER_STILL);
    assertThat(status.code()).as(status.toString()).isEqualTo(ExitCode.ERROR);
    JsonNode problems = status.json().get("problems");
    assertThat(problems).hasSize(1);
    assertThat(problems.get(0).get("table").asText()).isEqualTo("gas");
    assertThat(problems.get(0).get("problem").asText()).isEqualTo("missing");
    assertThat(problems.get(0).get("detail").asText())
        .contains("does not exist in either tier", "purged", remedy);
    assertThat(status.err()).contains("table gas: missing").doesNotContain("createTables");

    Cli.Run query = cli.run("query", "SELECT COUNT(*) FROM gas");
    assertThat(query.code()).as(query.toString()).isEqualTo(ExitCode.ERROR);
    assertThat(query.err().strip().lines()).hasSize(1);
    assertThat(query.err())
        .contains("Table gas does not exist", "purged", "'meterstore create'")
        .doesNotContain("createTables", "\tat ");

    Cli.Run archive = cli.run("--format", "json", "archive", "--now", LATER_STILL);
    assertThat(archive.out() + archive.err())
        .contains("Table gas does not exist")
        .doesNotContain("createTables");
    Cli.Run maintain = cli.run("maintain", "--once", "--now", LATER_STILL);
    assertThat(maintain.out() + maintain.err())
        .contains("Table gas does not exist")
        .doesNotContain("createTables");

    assertThat(hotRelations("gas")).isEmpty();
    assertThat(dataFiles("gas")).isEmpty();
    try (MeterCatalog catalog = open()) {
      assertThat(Tiers.cold(catalog).tableExists("gas")).as("no half-created store").isFalse();
      assertThat(catalog.table("gas").missingTiers())
          .containsExactlyInAnyOrder(Tier.HOT, Tier.COLD);
      assertThat(catalog.table("strom").missingTiers()).isEmpty();
    }

    Cli.Run check = cli.run("check");
    assertThat(check.code()).isEqualTo(ExitCode.ERROR);
    assertThat(check.err()).contains("gas: missing in the hot and cold tier", "meterstore create");

    Cli.Run create = cli.run("create", "--now", LATER_STILL);
    assertThat(create.code()).as(create.toString()).isZero();
    Cli.Run healthy = cli.run("--format", "json", "status", "--now", LATER_STILL);
    assertThat(healthy.code()).as(healthy.toString()).isZero();
    assertThat(healthy.json().get("problems")).isEmpty();
  }

  @Test
  @Order(17)
  void aBadConfigurationFailsCheckNamingTheProblemWithoutTheSecret() throws IOException {
    Path bad = dir.resolve("bad.toml");
    String withSecret =
        toml(db, dir.resolve("warehouse"), "")
            .replace("password = \"" + db.password() + "\"", "password = \"" + SECRET + "\"");
    Files.writeString(
        bad,
        withSecret.replace(
            "settlement_lag = \"2d\"\n[[tables]]", "settlment_lag = \"2d\"\n[[tables]]"));
    Cli.Run typo = Cli.raw("", "--config", bad.toString(), "check");
    assertThat(typo.code()).isEqualTo(ExitCode.ERROR);
    assertThat(typo.err()).contains("settlment_lag").doesNotContain(SECRET);

    Files.writeString(bad, withSecret.replace("\"2d\"", "2"));
    Cli.Run bare = Cli.raw("", "--config", bad.toString(), "check");
    assertThat(bare.code()).isEqualTo(ExitCode.ERROR);
    assertThat(bare.err()).contains("settlement_lag").doesNotContain(SECRET);

    Files.writeString(bad, withSecret.replace(SECRET, "${METERSTORE_CLI_IT_UNSET_VARIABLE}"));
    Cli.Run env = Cli.raw("", "--config", bad.toString(), "check");
    assertThat(env.code()).isEqualTo(ExitCode.ERROR);
    assertThat(env.err()).contains("METERSTORE_CLI_IT_UNSET_VARIABLE");

    // The test server may trust every password, so the refusal comes from a closed port.
    Files.writeString(bad, withSecret.replace(db.jdbcUrl(), "jdbc:postgresql://127.0.0.1:1/x"));
    Cli.Run refused = Cli.raw("", "--config", bad.toString(), "--format", "json", "check");
    assertThat(refused.code()).isIn(ExitCode.ERROR, ExitCode.RETRYABLE);
    assertThat(refused.out() + refused.err()).doesNotContain(SECRET);
  }

  /**
   * Issue #21: a settlement pinned from the CLI at month close survives snapshot expiry on a clock
   * far ahead and reads back through the shipped driver, as of its tag, to the last decimal after a
   * later correction changed the current answer; the holds and releases of the subject trail are
   * readable in SQL without natural ids.
   */
  @Test
  @Order(18)
  void aSettlementTaggedFromTheCliSurvivesExpiryAndReadsBackAsOfItsTag() throws Exception {
    // the same deployment, keeping only one untagged snapshot beyond the current one
    Path pins = dir.resolve("pins.toml");
    Files.writeString(
        pins,
        toml(db, dir.resolve("warehouse"), "")
            .replace("name = \"strom\"\n", "name = \"strom\"\nmin_snapshots_to_keep = 1\n"));
    Cli ops = new Cli(pins);
    String settlementSql =
        "SELECT SUM(\"value\") FROM strom WHERE \"from\" < TIMESTAMP '2026-03-11 00:00:00'";
    BigDecimal settled;
    try (MeterCatalog catalog = open()) {
      settled = sum(catalog.connection(), settlementSql);
    }

    Cli.Run tag =
        ops.run("--format", "json", "tag", "--table", "strom", "--name", "settlement-2026-03");
    assertThat(tag.code()).as(tag.toString()).isZero();
    long pinned = tag.json().get("snapshot_id").asLong();
    assertThat(tag.json().get("watermark").asText()).isEqualTo(watermark("strom"));
    Cli.Run again = ops.run("tag", "--table", "strom", "--name", "settlement-2026-03");
    assertThat(again.code()).isEqualTo(ExitCode.ERROR);
    assertThat(again.err()).contains("already tags snapshot " + pinned, "untag it first");
    Cli.Run badName = ops.run("tag", "--table", "strom", "--name", "März 2026");
    assertThat(badName.code()).isEqualTo(ExitCode.ERROR);
    assertThat(badName.err()).contains("Invalid tag");
    Cli.Run missing = ops.run("untag", "--table", "strom", "--name", "settlement-1999-01");
    assertThat(missing.code()).isEqualTo(ExitCode.ERROR);
    assertThat(missing.err()).contains("settlement-1999-01", "an existing tag");
    Cli.Run scratch =
        ops.run(
            "tag", "--table", "strom", "--name", "scratch", "--snapshot", Long.toString(pinned));
    assertThat(scratch.code()).as(scratch.toString()).isZero();
    assertThat(ops.run("untag", "--table", "strom", "--name", "scratch").code()).isZero();

    // a late correction of 2 March after the settlement: the current answer moves
    Instant correctedAt = Instant.parse(LATER_STILL);
    Reading original = day(MARCH.atDay(2), DemoMonth.STROM).get(0);
    BigDecimal delta = new BigDecimal("1.234567");
    Reading correction =
        original.toBuilder()
            .version("20260324120000")
            .value(original.value().add(delta))
            .quality(org.meterstore.api.reading.Quality.CORRECTED)
            .build();
    try (MeterCatalog catalog = open()) {
      assertThat(catalog.table("strom").append(List.of(correction), correctedAt).tier(0))
          .isEqualTo(Tier.COLD);
      assertThat(sum(catalog.connection(), settlementSql)).isEqualTo(settled.add(delta));
    }

    // archive what is due first: the resolved view's versions then moved past the correction's
    // snapshot more than one reader grace before the expiry run (a version read within the
    // grace keeps its snapshot)
    Cli.Run archive =
        ops.run("--format", "json", "maintain", "--once", "--now", "2100-01-01T00:00:00Z");
    assertThat(archive.code()).as(archive.toString()).isZero();
    List<Long> before = snapshotIds(ops, "2100-01-02T00:00:00Z");
    Cli.Run expire =
        ops.run(
            "--format",
            "json",
            "maintain",
            "--once",
            "--now",
            "2100-01-02T00:00:00Z",
            "--expire-snapshots");
    assertThat(expire.code()).as(expire.toString()).isZero();
    List<Long> after = snapshotIds(ops, "2100-01-02T00:00:00Z");
    List<Long> expired = before.stream().filter(id -> !after.contains(id)).toList();
    assertThat(expired).as("untagged old snapshots expired").isNotEmpty().doesNotContain(pinned);
    assertThat(expired)
        .as("the correction's snapshot")
        .contains(before.get(before.indexOf(pinned) + 1));
    assertThat(after).contains(pinned);
    Cli.Run tags = ops.run("--format", "json", "tags", "--table", "strom");
    assertThat(tags.code()).as(tags.toString()).isZero();
    assertThat(tags.json().get("tags")).hasSize(1);
    assertThat(tags.json().get("tags").get(0).get("tag").asText()).isEqualTo("settlement-2026-03");
    assertThat(tags.json().get("tags").get(0).get("snapshot_id").asLong()).isEqualTo(pinned);

    String url = "jdbc:meterstore:config=" + pins.toAbsolutePath();
    try (Connection asOfTag =
        DriverManager.getConnection(
            url + ";meterstore.mode=as_of_tag;meterstore.tag=settlement-2026-03")) {
      BigDecimal reproduced = sum(asOfTag, settlementSql);
      assertThat(reproduced).isEqualTo(settled);
      assertThat(reproduced.scale()).isEqualTo(6);
    }
    try (Connection current = DriverManager.getConnection(url)) {
      assertThat(sum(current, settlementSql)).isEqualTo(settled.add(delta));
    }
    try (Connection system =
            DriverManager.getConnection(url + ";meterstore.system_at=2100-01-01T00:00:00Z");
        java.sql.Statement st = system.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT tag, snapshot_id, watermark, archived_at FROM \"system\".tags"
                    + " WHERE \"table\" = 'strom'")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualTo("settlement-2026-03");
      assertThat(rs.getLong(2)).isEqualTo(pinned);
      assertThat(rs.getTimestamp(3)).isNotNull();
      assertThat(rs.getTimestamp(4)).isNotNull();
      assertThat(rs.next()).isFalse();
    }
    try (Connection system =
            DriverManager.getConnection(url + ";meterstore.system_at=2100-01-01T00:00:00Z");
        java.sql.Statement st = system.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT snapshot_id, tags FROM \"system\".snapshots WHERE \"table\" = 'strom'"
                    + " AND tags <> ''")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getLong(1)).isEqualTo(pinned);
      assertThat(rs.getString(2)).isEqualTo("settlement-2026-03");
    }
  }

  @Test
  @Order(19)
  void holdsAndReleasesAreReadableInSqlAndTheCliWithoutNaturalIds() throws Exception {
    Instant now = Instant.parse(LATER_STILL);
    SubjectRef held;
    try (MeterCatalog catalog = open()) {
      held =
          catalog
              .subjects()
              .registerSubject("kunde-0815", Instant.parse(CREATED), Commodity.STROM, now);
      catalog.subjects().holdSubject(held, "Rechtsstreit Az. 4 O 12/26", null, "legal", now);
      assertThat(
              catalog
                  .subjects()
                  .releaseHold(held, "Verfahren beendet", "legal", now.plusSeconds(60)))
          .isTrue();
      catalog.refreshSystemTables(now.plusSeconds(120));
      try (Connection c = catalog.connection();
          java.sql.Statement st = c.createStatement();
          ResultSet rs =
              st.executeQuery(
                  "SELECT action, erasure_trigger, subject_refs, reason, actor, held_until"
                      + " FROM \"system\".erasures ORDER BY trail_sequence")) {
        List<String> rows = new ArrayList<>();
        while (rs.next()) {
          rows.add(
              rs.getString(1)
                  + "|"
                  + rs.getString(2)
                  + "|"
                  + rs.getString(3)
                  + "|"
                  + rs.getString(4)
                  + "|"
                  + rs.getString(5)
                  + "|"
                  + rs.getString(6));
        }
        assertThat(rows).hasSize(3).allSatisfy(r -> assertThat(r).doesNotContain("kunde-"));
        assertThat(rows.get(0)).startsWith("erase|request|s2026_");
        assertThat(rows.get(1))
            .isEqualTo("hold|null|" + held.value() + "|Rechtsstreit Az. 4 O 12/26|legal|null");
        assertThat(rows.get(2))
            .isEqualTo("release|null|" + held.value() + "|Verfahren beendet|legal|null");
      }
    }
    Cli.Run holds =
        cli.run("--format", "json", "erasures", "--action", "hold", "--now", LATER_STILL);
    assertThat(holds.code()).as(holds.toString()).isZero();
    assertThat(holds.json().get("erasures")).hasSize(1);
    assertThat(holds.json().get("erasures").get(0).get("action").asText()).isEqualTo("hold");
    assertThat(holds.json().get("erasures").get(0).get("references").get(0).asText())
        .isEqualTo(held.value());
    Cli.Run all = cli.run("--format", "json", "erasures", "--now", "2026-03-25T15:00:00Z");
    assertThat(all.json().get("erasures"))
        .extracting(e -> e.get("action").asText())
        .containsExactly("erase", "hold", "release");
    assertThat(all.out()).doesNotContain("kunde-");
    Cli.Run bad = cli.run("erasures", "--action", "delete", "--now", LATER_STILL);
    assertThat(bad.code()).isEqualTo(ExitCode.ERROR);
    assertThat(bad.err()).contains("--action", "hold");
  }

  private static BigDecimal sum(Connection c, String sql) throws SQLException {
    try (c;
        java.sql.Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      return rs.getBigDecimal(1);
    }
  }

  private static List<Long> snapshotIds(Cli cli, String now) {
    Cli.Run run = cli.run("--format", "json", "snapshots", "--table", "strom", "--now", now);
    assertThat(run.code()).as(run.toString()).isZero();
    List<Long> ids = new ArrayList<>();
    run.json().get("snapshots").forEach(s -> ids.add(s.get("snapshot_id").asLong()));
    return ids;
  }

  private static String watermark(String table) {
    try (MeterCatalog catalog = open()) {
      return catalog.table(table).watermark().toString();
    }
  }

  private static MeterCatalog open() {
    return MeterStores.open(MeterStoreConfig.load(config), OpenTelemetry.noop());
  }

  /** Writes days {@code first..last} of March for five locations (four electricity, one gas). */
  private static void writeDays(int first, int last) {
    try (MeterCatalog catalog = open()) {
      for (int d = first; d <= last; d++) {
        LocalDate day = MARCH.atDay(d);
        catalog.table("strom").append(day(day, DemoMonth.STROM), Instant.parse(CREATED));
        catalog.table("gas").append(day(day, DemoMonth.GAS), Instant.parse(CREATED));
      }
    }
  }

  private static List<Reading> day(LocalDate day, String table) {
    return new DemoMonth(5, MARCH, 3)
        .deliveries(day).stream()
            .filter(d -> d.kind() == DemoMonth.Kind.ORIGINAL && d.table().equals(table))
            .flatMap(d -> d.readings().stream())
            .toList();
  }

  private static List<String> hotRelations(String table) throws SQLException {
    List<String> names = new ArrayList<>();
    try (Connection c = db.connect();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                    + " WHERE n.nspname = 'meterstore' AND c.relkind IN ('r', 'p')"
                    + " AND (c.relname = ? OR c.relname LIKE ?) ORDER BY 1")) {
      ps.setString(1, table);
      ps.setString(2, table + "\\_%");
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          names.add(rs.getString(1));
        }
      }
    }
    return names;
  }

  private static List<Path> dataFiles(String table) throws IOException {
    Path root = dir.resolve("warehouse");
    if (!Files.exists(root)) {
      return List.of();
    }
    try (Stream<Path> all = Files.walk(root)) {
      return all.filter(p -> p.toString().contains("/" + table + "/"))
          .filter(p -> p.toString().endsWith(".parquet"))
          .toList();
    }
  }

  static Map<String, String> env() {
    return Map.of();
  }
}
