package org.meterstore.hot.subject;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import javax.sql.DataSource;
import org.meterstore.api.calendar.MeteringCalendar;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.HotSettings;
import org.meterstore.hot.HotStore;
import org.meterstore.testing.TestDatabase;

/** Stores, metrics, secrets and SQL probes shared by the subject registry's tests. */
final class PrivacyFixtures {
  /** An interval table whose readings carry a subject reference. */
  static final TableDefinition LASTGANG =
      TableDefinition.interval("lastgang").withSubjectColumn("subject");

  static final String REASON = "Art. 17 GDPR request 2026-0042";
  static final String ACTOR = "privacy-officer";

  private PrivacyFixtures() {}

  /** A reproducible 32-byte secret. */
  static byte[] secret(long seed) {
    byte[] bytes = new byte[32];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }

  /** The instant of a local (Europe/Berlin) date-time, e.g. {@code 2028-12-31T00:00}. */
  static Instant local(String localDateTime) {
    return LocalDateTime.parse(localDateTime).atZone(MeteringCalendar.ZONE).toInstant();
  }

  /** A store on {@code schema} whose registry tables exist, recording into {@code metrics}. */
  static HotStore store(TestDatabase db, String schema, ErasureKeys keys, Metrics metrics) {
    return store(db.dataSource(), db, schema, keys, metrics);
  }

  static HotStore store(
      DataSource source, TestDatabase db, String schema, ErasureKeys keys, Metrics metrics) {
    HotSettings settings =
        HotSettings.DEFAULTS
            .withSchema(schema)
            .withDdlLockTimeout(Duration.ofSeconds(10))
            .withErasureKeys(keys);
    return HotStore.open(source, settings, metrics.sdk);
  }

  /**
   * Every string in {@code schema}: each text, varchar and text[] column of each table, as text.
   */
  static long occurrencesInSchema(TestDatabase db, String schema, String needle)
      throws SQLException {
    List<String> probes = new ArrayList<>();
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT c.table_name, c.column_name FROM information_schema.columns c"
                    + " JOIN information_schema.tables t USING (table_schema, table_name)"
                    + " WHERE c.table_schema = '"
                    + schema
                    + "' AND t.table_type = 'BASE TABLE'"
                    + " AND (c.data_type IN ('text', 'character varying', 'character', 'json',"
                    + " 'jsonb') OR c.udt_name IN ('_text', '_varchar'))")) {
      while (rs.next()) {
        probes.add(
            "SELECT count(*) FROM \""
                + schema
                + "\".\""
                + rs.getString(1)
                + "\" WHERE \""
                + rs.getString(2)
                + "\"::text ILIKE '%' || ? || '%'");
      }
    }
    if (probes.isEmpty()) {
      throw new IllegalStateException("no text column in schema " + schema);
    }
    long hits = 0;
    try (Connection c = db.connect()) {
      for (String probe : probes) {
        try (var s = c.prepareStatement(probe)) {
          s.setString(1, needle);
          try (ResultSet rs = s.executeQuery()) {
            rs.next();
            hits += rs.getLong(1);
          }
        }
      }
    }
    return hits;
  }

  /** An OpenTelemetry SDK whose metrics a test reads back. */
  static final class Metrics implements AutoCloseable {
    final InMemoryMetricReader reader = InMemoryMetricReader.create();
    final OpenTelemetrySdk sdk =
        OpenTelemetrySdk.builder()
            .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(reader).build())
            .build();

    /** The sum of {@code name}'s points whose attributes equal {@code attributes}. */
    long sum(String name, Attributes attributes) {
      return points(name).stream()
          .filter(p -> p.getAttributes().equals(attributes))
          .mapToLong(LongPointData::getValue)
          .sum();
    }

    /** {@code meterstore.subjects_erased} with {@code trigger}. */
    long erased(Trigger trigger) {
      return sum(
          "meterstore.subjects_erased",
          Attributes.of(AttributeKey.stringKey("trigger"), trigger.attributeValue()));
    }

    List<LongPointData> points(String name) {
      List<LongPointData> points = new ArrayList<>();
      for (MetricData m : reader.collectAllMetrics()) {
        if (m.getName().equals(name)) {
          points.addAll(m.getLongSumData().getPoints());
        }
      }
      return points;
    }

    @Override
    public void close() {
      sdk.close();
    }
  }
}
