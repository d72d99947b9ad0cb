package org.meterstore.cold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.meterstore.cold.ColdFixtures.DAY1;
import static org.meterstore.cold.ColdFixtures.DAY2;
import static org.meterstore.cold.ColdFixtures.DAY3;
import static org.meterstore.cold.ColdFixtures.NOW;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.ExtraColumn;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.commit.ArchiveRequest;
import org.meterstore.cold.commit.ArchiveStatus;
import org.meterstore.cold.drift.DriftReport;
import org.meterstore.cold.drift.DriftVerdict;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * Every row of DESIGN § 5's drift table, with the cold table evolved out of band through Iceberg's
 * {@code updateSchema()} as an operator would, or the configuration changed.
 */
@ExtendWith(PostgresExtension.class)
class SchemaDriftIT {
  @TempDir Path warehouse;
  private ColdStore store;

  @BeforeEach
  void open(TestDatabase db) {
    store = ColdStore.open(ColdFixtures.jdbc(db, warehouse));
  }

  @AfterEach
  void close() {
    store.close();
  }

  /** A table with day 1 archived, evolved by {@code operator}; returns it reopened. */
  private ColdTable evolved(String name, Consumer<Table> operator) {
    TableDefinition def = TableDefinition.interval(name);
    ColdTable table = store.createTable(def);
    table.archive(
        new ArchiveRequest(DAY1, DAY2, NOW, 1), ColdFixtures.rows(def, 1, DAY1, DAY2, 60));
    operator.accept(table.icebergTable());
    return store.createTable(def);
  }

  private static void assertAcceptedAndStillArchives(ColdTable table, String note) {
    DriftReport report = table.checkDrift();
    assertThat(report.verdict()).isEqualTo(DriftVerdict.COMPATIBLE);
    assertThat(report.acceptedDifferences()).anyMatch(d -> d.contains(note));
    table.requireNoDrift();
    var result =
        table.archive(
            new ArchiveRequest(DAY2, DAY3, NOW, 2),
            ColdFixtures.rows(table.definition(), 1, DAY2, DAY3, 60));
    assertThat(result.status()).isEqualTo(ArchiveStatus.COMMITTED);
    assertThat(ColdFixtures.count(table.read())).isEqualTo(48);
  }

  private static void assertQuarantined(ColdTable table, String reason) {
    DriftReport report = table.checkDrift();
    assertThat(report.verdict()).isEqualTo(DriftVerdict.QUARANTINED);
    assertThat(report.isCompatible()).isFalse();
    assertThat(report.reasons()).anyMatch(r -> r.contains(reason));
    assertThatThrownBy(
            () ->
                table.archive(
                    new ArchiveRequest(DAY2, DAY3, NOW, 2),
                    ColdFixtures.rows(table.definition(), 1, DAY2, DAY3, 60)))
        .isInstanceOfSatisfying(
            MeterStoreException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.QUARANTINED))
        .hasMessageContaining(table.definition().name())
        .hasMessageContaining(reason);
    assertThat(table.watermark()).isEqualTo(DAY2);
  }

  @Test
  void aNullableColumnAddedToTheColdTableIsAccepted() {
    ColdTable t =
        evolved(
            "add_nullable",
            s -> s.updateSchema().addColumn("comment", Types.StringType.get()).commit());
    assertAcceptedAndStillArchives(t, "extra nullable column comment");
  }

  @Test
  void aNullableColumnDroppedFromTheColdTableIsAccepted() {
    ColdTable t =
        evolved("drop_nullable", s -> s.updateSchema().deleteColumn("provenance").commit());
    assertAcceptedAndStillArchives(t, "nullable column provenance is not in the cold table");
  }

  @Test
  void aWidenedDecimalPrecisionIsAccepted() {
    ColdTable t =
        evolved(
            "widened",
            s -> s.updateSchema().updateColumn("value", Types.DecimalType.of(20, 6)).commit());
    assertAcceptedAndStillArchives(t, "decimal precision widened for value");
  }

  @Test
  void aRenamedNullableColumnIsAcceptedAsADropPlusAnAdd() {
    ColdTable t =
        evolved(
            "renamed_nullable",
            s -> s.updateSchema().renameColumn("source_kind", "source").commit());
    assertAcceptedAndStillArchives(t, "extra nullable column source");
  }

  @Test
  void aNotNullColumnAddedToTheColdTableQuarantines() {
    ColdTable t =
        evolved(
            "add_required",
            s ->
                s.updateSchema()
                    .allowIncompatibleChanges()
                    .addRequiredColumn("tariff", Types.StringType.get())
                    .commit());
    assertQuarantined(t, "required column tariff that is not configured");
  }

  @Test
  void aRequiredColumnDroppedFromTheColdTableQuarantines() {
    ColdTable t = evolved("drop_required", s -> s.updateSchema().deleteColumn("quality").commit());
    assertQuarantined(t, "required column quality is not in the cold table");
  }

  @Test
  void aNarrowedTypeQuarantines() {
    ColdTable t =
        evolved(
            "narrowed",
            s -> {
              s.updateSchema().deleteColumn("value").commit();
              s.updateSchema()
                  .allowIncompatibleChanges()
                  .addRequiredColumn("value", Types.DecimalType.of(12, 6))
                  .commit();
            });
    assertQuarantined(t, "decimal precision narrowed for value");
  }

  @Test
  void aChangedDecimalScaleQuarantines() {
    ColdTable t =
        evolved(
            "rescaled",
            s -> {
              s.updateSchema().deleteColumn("value").commit();
              s.updateSchema()
                  .allowIncompatibleChanges()
                  .addRequiredColumn("value", Types.DecimalType.of(18, 4))
                  .commit();
            });
    assertQuarantined(t, "decimal scale changed for value");
  }

  @Test
  void aRenamedRequiredColumnQuarantinesAsADropPlusAnAdd() {
    ColdTable t =
        evolved(
            "renamed_required", s -> s.updateSchema().renameColumn("obis_code", "obis").commit());
    assertQuarantined(t, "required column obis_code is not in the cold table");
    assertThat(t.checkDrift().reasons()).anyMatch(r -> r.contains("required column obis that"));
  }

  @Test
  void declaringAnIdentityColumnQuarantines() {
    TableDefinition plain = TableDefinition.interval("declared");
    ColdTable table = store.createTable(plain);
    table.archive(
        new ArchiveRequest(DAY1, DAY2, NOW, 1), ColdFixtures.rows(plain, 1, DAY1, DAY2, 60));

    ColdTable withTenant =
        store.createTable(plain.withExtraColumns(List.of(ExtraColumn.identity("tenant"))));

    assertThat(withTenant.checkDrift().reasons())
        .anyMatch(r -> r.contains("required column tenant is not in the cold table"));
    assertThatThrownBy(withTenant::requireNoDrift)
        .isInstanceOfSatisfying(
            MeterStoreException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.QUARANTINED))
        .hasMessageContaining("declared");
    assertThat(withTenant.watermark()).isEqualTo(DAY2);
  }

  @Test
  void undeclaringAnIdentityColumnQuarantines() {
    TableDefinition withTenant =
        TableDefinition.interval("undeclared")
            .withExtraColumns(List.of(ExtraColumn.identity("tenant")));
    store.createTable(withTenant);

    ColdTable plain = store.createTable(TableDefinition.interval("undeclared"));

    assertThat(plain.checkDrift().verdict()).isEqualTo(DriftVerdict.QUARANTINED);
    assertThat(plain.checkDrift().reasons())
        .anyMatch(r -> r.contains("required column tenant that is not configured"));
  }

  @Test
  void aColdTableThatCannotReportItsSchemaIsNotCompatible() throws Exception {
    TableDefinition def = TableDefinition.interval("unreadable");
    ColdTable table = store.createTable(def);
    Table iceberg = table.icebergTable();
    String metadata = ((HasTableOperations) iceberg).operations().current().metadataFileLocation();
    Files.delete(Path.of(URI.create(metadata.replaceFirst("^file:/+", "file:///"))));

    DriftReport report = table.checkDrift();

    assertThat(report.verdict()).isEqualTo(DriftVerdict.UNKNOWN);
    assertThat(report.isCompatible()).isFalse();
    assertThat(report.reasons()).anyMatch(r -> r.contains("cannot report its schema"));
    assertThatThrownBy(table::requireNoDrift)
        .isInstanceOfSatisfying(
            MeterStoreException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.QUARANTINED))
        .hasMessageContaining("unreadable")
        .hasMessageContaining("UNKNOWN");
  }
}
