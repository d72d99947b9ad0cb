package org.meterstore.examples;

import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Base64;
import java.util.Map;
import org.meterstore.MeterCatalog;
import org.meterstore.MeterStores;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.config.MeterStoreConfig;
import org.meterstore.hot.subject.ErasureResult;
import org.meterstore.hot.subject.SubjectRef;
import org.meterstore.hot.subject.TrailEntry;

/**
 * Erasing a person (Art. 17 GDPR): readings carry only a pseudonymous reference from the subject
 * registry; erasing the subject deletes the mapping (no reading is rewritten), records the erasure
 * in the audit trail without the natural identifier, and puts an HMAC of the identifier on the
 * suppression list so replayed data cannot register it again.
 */
public final class SubjectErasure {
  private SubjectErasure() {}

  public static void main(String[] args) throws Exception {
    Path dataDir = Files.createTempDirectory("meterstore-erasure");
    String key = Base64.getEncoder().encodeToString(new byte[32]); // use a real secret: ${ENV}
    MeterStoreConfig config =
        MeterStoreConfig.parse(
            """
            data_dir = "%s"

            [privacy.erasure_keys]
            k2026 = "%s"

            [[tables]]
            name = "lastgang"
            subject_column = "kunde"
            """
                .formatted(dataDir.toString().replace('\\', '/'), key),
            dataDir,
            Map.of());
    Instant now = Instant.parse("2026-05-02T09:00:00Z");
    LocalDate day = LocalDate.of(2026, 5, 1);
    try (MeterCatalog catalog = MeterStores.open(config, OpenTelemetry.noop())) {
      catalog.createTables(now);
      SubjectRef ref =
          catalog
              .subjects()
              .registerSubject(
                  "customer-4711",
                  day.atStartOfDay().toInstant(java.time.ZoneOffset.UTC),
                  Commodity.STROM,
                  now);
      catalog.table("lastgang").append(Readings.day(day, "20260502060000", ref.value()), now);
      System.out.println("readings carry " + ref + ", never the customer number");

      ErasureResult erased =
          catalog.subjects().eraseSubject("customer-4711", "Art. 17 request #88", "support", now);
      System.out.println(
          "erased mappings: " + erased.count() + ", suppressed: " + erased.suppressed());

      try (Connection c = catalog.connection();
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT COUNT(*), MIN(kunde) FROM lastgang")) {
        rs.next();
        System.out.println(
            rs.getLong(1)
                + " readings remain, referencing "
                + rs.getString(2)
                + " (now unlinkable)");
      }
      for (TrailEntry e :
          catalog.subjects().erasures(Instant.EPOCH, now.plusSeconds(1), null, 10)) {
        System.out.println(
            "trail: " + e.at() + " " + e.trigger() + " " + e.reason() + " by " + e.actor());
      }
    }
  }
}
