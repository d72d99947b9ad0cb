package org.meterstore.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * A Trino query that holds a state pin and runs after two days of maintenance cycles — far longer
 * than the table's one-hour {@code reader_grace} (issue #34 item 4): the pinned state's {@code
 * trino_sql}, run verbatim, returns MeterStore's answer at the pin to the last decimal. Runs only
 * with {@code -Pinterop}.
 */
@ExtendWith(PostgresExtension.class)
class TrinoPinnedJobIT {
  @TempDir Path warehouse;
  @TempDir Path trinoBase;

  @Test
  void thePinnedStatesTrinoSqlReturnsMeterStoresAnswerAfterDaysOfMaintenance(TestDatabase db)
      throws Exception {
    try (LocalTrino trino = LocalTrino.launch(db, warehouse, trinoBase);
        InteropStore store = InteropStore.build(db, warehouse)) {
      List<String> atPin = store.totals("\"" + InteropStore.TABLE + "\"");
      InteropStore.Pinned pin = store.pin("trino report");
      assertThat(pin.trinoSql()).contains("FOR VERSION AS OF " + pin.snapshotId());
      store.maintainWhilePinned(2);

      trino.awaitActive();
      try (Connection client = trino.connect();
          Statement s = client.createStatement();
          ResultSet rs =
              s.executeQuery("SELECT COUNT(*), SUM(\"value\") FROM (" + pin.trinoSql() + ") f")) {
        rs.next();
        BigDecimal sum = rs.getBigDecimal(2);
        assertThat(List.of(Long.toString(rs.getLong(1)), InteropStore.plain(sum))).isEqualTo(atPin);
      }
    }
  }
}
