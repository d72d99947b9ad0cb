package org.meterstore.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.Workload;

@ExtendWith(PostgresExtension.class)
class SmokeIT {
  @TempDir Path warehouse;

  @Test
  void smoke(TestDatabase db) throws Exception {
    TableDefinition def = TableDefinition.interval("lastgang");
    Instant now = Instant.parse("2026-02-01T00:00:00Z");
    try (Deployment d = new Deployment(db, warehouse, now, List.of(def))) {
      Workload w = new Workload(2, LocalDate.of(2026, 1, 1), 3, 0, 0.05, 0.0, 7);
      for (Workload.Delivery del : w.deliveries()) {
        d.hot.write(def, del.readings(), now);
      }
      d.archive(
          def, Instant.parse("2026-01-01T00:00:00Z"), Instant.parse("2026-01-02T00:00:00Z"), true);
      try (Connection c = d.catalog.connection();
          Statement s = c.createStatement()) {
        for (String sql :
            List.of(
                "SELECT count(*), sum(\"value\") FROM lastgang",
                "SELECT count(*) FROM lastgang_versions",
                "SELECT count(*) FROM lastgang WHERE \"from\" >= TIMESTAMP '2026-01-02 00:00:00'",
                "EXPLAIN PLAN FOR SELECT count(*), sum(\"value\") FROM lastgang",
                "EXPLAIN PLAN FOR SELECT malo_id, \"value\" FROM lastgang WHERE \"from\" >= TIMESTAMP '2026-01-02 00:00:00' AND malo_id = '5000000001'",
                "EXPLAIN PLAN FOR SELECT malo_id, \"value\" FROM lastgang WHERE \"from\" < TIMESTAMP '2026-01-02 00:00:00' AND quality = 'MEASURED'")) {
          try (ResultSet rs = s.executeQuery(sql)) {
            StringBuilder b = new StringBuilder(sql).append("\n");
            while (rs.next()) {
              for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                b.append(rs.getString(i)).append(" | ");
              }
              b.append("\n");
            }
            org.slf4j.LoggerFactory.getLogger(SmokeIT.class).warn(b.toString());
          }
        }
      }
      assertThat(true).isTrue();
    }
  }
}
