package org.meterstore.api.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.api.InvalidInput.assertInvalid;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.ReadingBuilder;

class TableDefinitionTest {
  static final String MELO = "DE0001234567890123456789012345678";

  static ReadingBuilder quarterHour() {
    return Reading.builder()
        .malo("51238696781")
        .obis("1-0:1.8.0")
        .commodity(Commodity.STROM)
        .interval(Instant.parse("2026-05-01T10:00:00Z"), Instant.parse("2026-05-01T10:15:00Z"))
        .value("1")
        .operator("9900000000003");
  }

  @Test
  void tableNamesAreLowercaseIdentifiersOfAtMost34Characters() {
    assertThat(TableDefinition.interval("lastgang").name()).isEqualTo("lastgang");
    assertThat(TableDefinition.interval("a".repeat(34)).name()).hasSize(34);
    assertInvalid(() -> TableDefinition.interval("a".repeat(35)), "table name", "34");
    assertInvalid(() -> TableDefinition.interval("Lastgang"), "table name", "'Lastgang'");
    assertInvalid(() -> TableDefinition.interval("last-gang"), "table name");
    assertInvalid(() -> TableDefinition.interval("1gang"), "table name");
    assertInvalid(() -> TableDefinition.interval(null), "table name");
  }

  @Test
  void theMergeKeyIsMaloObisFromAndIdentityColumns() {
    TableDefinition t =
        TableDefinition.interval("lastgang")
            .withExtraColumns(
                List.of(ExtraColumn.attribute("note"), ExtraColumn.identity("tenant")));
    assertThat(t.mergeKey()).containsExactly("malo_id", "obis_code", "from", "tenant");
    assertThat(t.primaryKey()).containsExactly("malo_id", "obis_code", "from", "tenant", "version");
    assertThat(t.withMeloInKey(true).mergeKey())
        .containsExactly("malo_id", "melo_id", "obis_code", "from", "tenant");
  }

  @Test
  void pointTablesAlwaysIdentifyReadingsByMeteringLocation() {
    TableDefinition t = TableDefinition.point("zaehlerstand").withMeloInKey(false);
    assertThat(t.meloInKey()).isTrue();
    assertThat(t.mergeKey()).containsExactly("malo_id", "melo_id", "obis_code", "from");
    assertThat(t.columns())
        .filteredOn(c -> c.name().equals("melo_id"))
        .singleElement()
        .extracting(ColumnSpec::nullable)
        .isEqualTo(false);
  }

  @Test
  void columnsAreTheStandardOnesThenExtrasThenTheSubject() {
    TableDefinition t =
        TableDefinition.interval("lastgang")
            .withExtraColumns(List.of(ExtraColumn.identity("tenant")))
            .withSubjectColumn("subject_ref");
    List<String> names = t.columns().stream().map(ColumnSpec::name).toList();
    assertThat(names)
        .startsWith("malo_id", "melo_id", "obis_code", "sparte", "from", "to", "value")
        .endsWith("provenance", "tenant", "subject_ref")
        .hasSize(StandardColumn.values().length + 2);
    assertThat(t.columns().get(6).type()).isEqualTo(ColumnType.DECIMAL_18_6);
  }

  @Test
  void refusesClashingOrDuplicateColumnNames() {
    assertInvalid(() -> ExtraColumn.attribute("from"), "column name", "standard");
    assertInvalid(
        () ->
            TableDefinition.interval("t")
                .withExtraColumns(List.of(ExtraColumn.attribute("x"), ExtraColumn.identity("x"))),
        "declared twice");
    assertInvalid(
        () ->
            TableDefinition.interval("t")
                .withExtraColumns(List.of(ExtraColumn.attribute("x")))
                .withSubjectColumn("x"),
        "subject column");
    assertInvalid(() -> ExtraColumn.coded("c", Set.of()), "allowed values");
    assertInvalid(() -> ExtraColumn.coded("c", Set.of("HT", "N'T")), "allowed value of column c");
    assertInvalid(() -> ExtraColumn.coded("c", Set.of("a\\b")), "allowed value of column c");
  }

  @Test
  void acceptRefusesAReadingOfTheOtherTimeModel() {
    Reading interval = quarterHour().melo(MELO).build();
    assertInvalid(() -> TableDefinition.point("zaehlerstand").accept(interval), "POINT");
    Reading point = quarterHour().interval(interval.from(), (Instant) null).melo(MELO).build();
    assertInvalid(() -> TableDefinition.interval("lastgang").accept(point), "INTERVAL");
    assertThat(TableDefinition.point("zaehlerstand").accept(point)).isEmpty();
  }

  @Test
  void acceptRequiresTheMeteringLocationWhenItIsPartOfTheKey() {
    assertInvalid(
        () -> TableDefinition.interval("t").withMeloInKey(true).accept(quarterHour().build()),
        "melo_id",
        "metering location");
  }

  @Test
  void acceptChecksEveryDeclaredExtraColumn() {
    TableDefinition t =
        TableDefinition.interval("lastgang")
            .withExtraColumns(
                List.of(
                    ExtraColumn.identity("tenant"),
                    ExtraColumn.coded("tariff", Set.of("HT", "NT")),
                    ExtraColumn.checked("grid_area", CheckedKind.EIC),
                    ExtraColumn.attribute("note")));
    assertThat(
            t.accept(
                quarterHour()
                    .extra("tenant", "sw-nord")
                    .extra("tariff", "HT")
                    .extra("grid_area", "10ydE-rwenet---I")
                    .build()))
        .containsEntry("tenant", "sw-nord")
        .containsEntry("grid_area", "10YDE-RWENET---I")
        .containsEntry("note", null);
    assertInvalid(() -> t.accept(quarterHour().build()), "tenant", "identity column");
    assertInvalid(
        () -> t.accept(quarterHour().extra("tenant", "a").extra("tariff", "XX").build()),
        "tariff",
        "'XX'");
    assertInvalid(
        () -> t.accept(quarterHour().extra("tenant", "a").extra("grid_area", "10YDE").build()),
        "10YDE");
    assertInvalid(
        () -> t.accept(quarterHour().extra("tenant", "a").extra("colour", "red").build()),
        "column",
        "'colour'",
        "not declared in table lastgang");
    assertInvalid(
        () -> t.accept(quarterHour().extra("tenant", "a").subject("ref").build()),
        "subject",
        "no subject column");
  }
}
