package org.meterstore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cli.output.ExitCode;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.Workload;

/**
 * {@code meterstore import} through the real command against a real store (the configuration of
 * {@link CliIT} plus a table {@code copy}): a CSV file's counts and watermarks in the JSON result
 * and its total through {@code query}; a re-run all duplicate; an unsettled range and a bad record
 * refused with exit 1, naming the file (and the line), nothing written; the cold tier's own Parquet
 * data files imported into another table; an unknown extension refused; the progress line drawn
 * only on a terminal. The methods run in order, like an operator's session.
 */
@ExtendWith(PostgresExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ImportCliIT {
  private static final String CREATED = "2026-03-01T00:00:00Z";
  private static final String NOW = "2026-03-10T00:00:00Z";
  private static final Instant DAY = Instant.parse("2026-03-02T00:00:00Z");
  private static final Instant RECORDED = Instant.parse("2026-03-05T07:00:00.125Z");
  private static final int METERS = 3;
  private static final int DAYS = 2;
  private static final int ROWS = METERS * DAYS * 96;

  private static Path dir;
  private static Cli cli;
  private static Path march;
  private static BigDecimal total;

  @BeforeAll
  static void writeConfig(TestDatabase db) throws IOException {
    dir =
        Files.createDirectories(
            Path.of("target", "import-cli-it", "run-" + ProcessHandle.current().pid()));
    Path config = dir.resolve("meterstore.toml");
    String copy =
        "[[tables]]\nname = \"copy\"\nsettlement_lag = \"2d\"\n"
            + "[[tables]]\nname = \"dirs\"\nsettlement_lag = \"2d\"\n";
    Files.writeString(config, CliIT.toml(db, dir.resolve("warehouse"), copy));
    cli = new Cli(config);
    List<Object[]> rows = rows(DAY, DAYS);
    march = csv("march.csv", rows);
    total = rows.stream().map(r -> (BigDecimal) r[6]).reduce(BigDecimal.ZERO, BigDecimal::add);
  }

  @Test
  @Order(1)
  void aCsvFileIsImportedAndItsTotalIsQueried() {
    assertThat(cli.run("create", "--now", CREATED).code()).isZero();
    Cli.Run run =
        cli.run(
            "--format",
            "json",
            "import",
            "--table",
            "strom",
            "--now",
            NOW,
            "--chunk-rows",
            "50",
            "--chunks-held",
            "2",
            "--threads",
            "2",
            march.toString());
    assertThat(run.code()).as(run.toString()).isZero();
    assertThat(run.err()).isEmpty(); // not a terminal: no progress line
    JsonNode json = run.json();
    assertThat(json.get("table").asText()).isEqualTo("strom");
    assertThat(json.get("file").asText()).isEqualTo(march.toString());
    assertThat(json.get("rows").asLong()).isEqualTo(ROWS);
    assertThat(json.get("inserted").asLong()).isEqualTo(ROWS);
    assertThat(json.get("duplicate").asLong()).isZero();
    assertThat(json.get("chunks").asInt()).isGreaterThan(1);
    assertThat(json.get("watermark_before").asText()).isEqualTo("1970-01-01T00:00:00Z");
    assertThat(json.get("watermark_after").asText()).isEqualTo("2026-03-04T00:00:00Z");
    assertThat(json.get("range_from").asText()).isEqualTo(DAY.toString());

    assertThat(countAndTotal("strom"))
        .isEqualTo(ROWS + " " + total.stripTrailingZeros().toPlainString());
  }

  @Test
  @Order(2)
  void aRerunIsAllDuplicateAndDrawsProgressOnlyOnATerminal() {
    Cli.Run run =
        cli.runInteractive(
            "--format", "json", "import", "--table", "strom", "--now", NOW, march.toString());
    assertThat(run.code()).as(run.toString()).isZero();
    JsonNode json = run.json();
    assertThat(json.get("duplicate").asLong()).isEqualTo(ROWS);
    assertThat(json.get("inserted").asLong()).isZero();
    assertThat(json.get("commits").asInt()).isZero();
    assertThat(json.get("watermark_before").asText()).isEqualTo("2026-03-04T00:00:00Z");
    assertThat(json.get("watermark_after").asText()).isEqualTo("2026-03-04T00:00:00Z");
    assertThat(run.err())
        .matches(
            "\rimporting: "
                + ROWS
                + " / "
                + ROWS
                + " readings \\(100 %\\), [0-9,]+/s"
                + System.lineSeparator());
    assertThat(countAndTotal("strom"))
        .isEqualTo(ROWS + " " + total.stripTrailingZeros().toPlainString());
  }

  @Test
  @Order(3)
  void anUnsettledRangeIsRefusedNamingTheFileWithNothingWritten() throws IOException {
    Path late = csv("late.csv", rows(Instant.parse("2026-03-09T00:00:00Z"), 1));
    Cli.Run run = cli.run("import", "--table", "gas", "--now", NOW, late.toString());
    assertThat(run.code()).as(run.toString()).isEqualTo(ExitCode.ERROR);
    assertThat(run.out()).isEmpty();
    assertThat(run.err().lines().count()).isEqualTo(1);
    assertThat(run.err())
        .startsWith("meterstore: Cannot import " + late)
        .contains("not settled", "nothing was written");
    assertThat(countAndTotal("gas")).isEqualTo("0 null");
  }

  @Test
  @Order(4)
  void aBadRecordIsRefusedNamingTheFileAndLineWithNothingWritten() throws IOException {
    Path bad = csv("bad.csv", rows(DAY, 1));
    List<String> lines = new ArrayList<>(Files.readAllLines(bad));
    lines.set(50, lines.get(50).replaceFirst("^\\d{11}", "51238696782")); // bad check digit
    Files.write(bad, lines);
    Cli.Run run = cli.run("import", "--table", "gas", "--now", NOW, bad.toString());
    assertThat(run.code()).as(run.toString()).isEqualTo(ExitCode.ERROR);
    assertThat(run.err())
        .startsWith("meterstore: Cannot import " + bad + " line 51: ")
        .contains("MaLo")
        .doesNotContain("\tat ");
    assertThat(countAndTotal("gas")).isEqualTo("0 null");
  }

  @Test
  @Order(5)
  void theColdTiersParquetDataFilesImportIntoAnotherTable() throws IOException {
    List<Path> files;
    try (Stream<Path> all = Files.walk(dir.resolve("warehouse"))) {
      files =
          all.filter(p -> p.toString().contains("/strom/") && p.toString().endsWith(".parquet"))
              .sorted()
              .collect(Collectors.toList());
    }
    assertThat(files).isNotEmpty();
    long inserted = 0;
    for (Path file : files) {
      Cli.Run run =
          cli.run("--format", "json", "import", "--table", "copy", "--now", NOW, file.toString());
      assertThat(run.code()).as(run.toString()).isZero();
      assertThat(run.json().get("duplicate").asLong()).isZero();
      inserted += run.json().get("inserted").asLong();
    }
    assertThat(inserted).isEqualTo(ROWS);
    assertThat(countAndTotal("copy"))
        .isEqualTo(ROWS + " " + total.stripTrailingZeros().toPlainString());
  }

  @Test
  @Order(6)
  void anUnknownExtensionOrAMissingFileIsRefusedClearly() throws IOException {
    Path json = Files.writeString(dir.resolve("readings.json"), "[]");
    Cli.Run run = cli.run("import", "--table", "strom", "--now", NOW, json.toString());
    assertThat(run.code()).as(run.toString()).isEqualTo(ExitCode.ERROR);
    // a long path is shortened in the message: its start and the rule are what must show
    assertThat(run.err())
        .startsWith("meterstore: Invalid import file: '" + json.toString().substring(0, 20))
        .endsWith(" (a .csv or .parquet file)" + System.lineSeparator());
    assertThat(run.err().lines().count()).isEqualTo(1);
    Cli.Run missing = cli.run("import", "--table", "strom", "--now", NOW, "missing.csv");
    assertThat(missing.code()).as(missing.toString()).isEqualTo(ExitCode.ERROR);
    assertThat(missing.err())
        .isEqualTo(
            "meterstore: Invalid import file: 'missing.csv' (no such file or directory)"
                + System.lineSeparator());
  }

  @Test
  @Order(7)
  void aDirectoryIsOneImportAndAQuotedGlobRerunsIt() throws IOException {
    Files.createDirectories(dir.resolve("days"));
    List<Object[]> first = rows(DAY, 1);
    List<Object[]> second = rows(DAY.plus(Duration.ofDays(1)), 1);
    csv("days/2026-03-02.csv", first);
    csv("days/2026-03-03.csv", second);
    Files.writeString(dir.resolve("days/_SUCCESS"), "");
    BigDecimal sum =
        java.util.stream.Stream.concat(first.stream(), second.stream())
            .map(r -> (BigDecimal) r[6])
            .reduce(BigDecimal.ZERO, BigDecimal::add);
    Path days = dir.resolve("days");

    Cli.Run run =
        cli.run("--format", "json", "import", "--table", "dirs", "--now", NOW, days.toString());
    assertThat(run.code()).as(run.toString()).isZero();
    JsonNode json = run.json();
    assertThat(json.get("file").asText()).isEqualTo(days + " (2 files)");
    assertThat(json.get("inserted").asLong()).isEqualTo(ROWS);
    assertThat(json.get("watermark_after").asText()).isEqualTo("2026-03-04T00:00:00Z");
    assertThat(countAndTotal("dirs"))
        .isEqualTo(ROWS + " " + sum.stripTrailingZeros().toPlainString());

    Cli.Run glob =
        cli.run("--format", "json", "import", "--table", "dirs", "--now", NOW, days + "/*.csv");
    assertThat(glob.code()).as(glob.toString()).isZero();
    assertThat(glob.json().get("file").asText())
        .isEqualTo(days.resolve("2026-03-02.csv") + " and 1 more");
    assertThat(glob.json().get("duplicate").asLong()).isEqualTo(ROWS);
    assertThat(glob.json().get("commits").asInt()).isZero();
  }

  /** {@code COUNT(*)} and {@code SUM("value")} of {@code table} through the query verb. */
  private static String countAndTotal(String table) {
    Cli.Run run =
        cli.run(
            "--format",
            "json",
            "query",
            "SELECT COUNT(*) AS n, SUM(\"value\") AS total FROM " + table);
    assertThat(run.code()).as(run.toString()).isZero();
    JsonNode row = run.json().get("rows").get(0);
    JsonNode sum = row.get("total");
    return row.get("n").asLong()
        + " "
        + (sum.isNull()
            ? "null"
            : new BigDecimal(sum.asText()).stripTrailingZeros().toPlainString());
  }

  /** {@value #METERS} meters' quarter-hours of {@code days} UTC days from {@code first}. */
  private static List<Object[]> rows(Instant first, int days) {
    TableDefinition table = TableDefinition.interval("strom");
    List<Object[]> rows = new ArrayList<>();
    Instant end = first.plus(Duration.ofDays(days));
    for (int meter = 1; meter <= METERS; meter++) {
      int i = 0;
      for (Instant t = first; t.isBefore(end); t = t.plus(Duration.ofMinutes(15))) {
        Reading r =
            Reading.builder()
                .malo(Workload.malo(meter))
                .obis("1-0:1.8.0")
                .commodity(Commodity.STROM)
                .interval(t, t.plus(Duration.ofMinutes(15)))
                .value(meter + "." + String.format("%03d", i++ * 37 % 1000))
                .operator(Workload.OPERATOR)
                .build();
        rows.add(StoredRow.of(table, StoredReading.accept(r, RECORDED)));
      }
    }
    return rows;
  }

  /** The rows as an import CSV: a header of every column, then one line each. */
  private static Path csv(String name, List<Object[]> rows) throws IOException {
    List<String> lines = new ArrayList<>();
    List<ColumnSpec> columns = TableDefinition.interval("strom").columns();
    lines.add(columns.stream().map(ColumnSpec::name).collect(Collectors.joining(",")));
    for (Object[] row : rows) {
      List<String> fields = new ArrayList<>();
      for (Object v : row) {
        fields.add(v == null ? "" : v instanceof BigDecimal d ? d.toPlainString() : v.toString());
      }
      lines.add(String.join(",", fields));
    }
    return Files.write(dir.resolve(name), lines);
  }
}
