package org.meterstore.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * A Spark job that holds a state pin and runs after two days of maintenance cycles — far longer
 * than the table's one-hour {@code reader_grace} (issue #34 item 4): the pinned state's {@code
 * spark_sql}, run verbatim, returns MeterStore's answer at the pin to the last decimal. Runs only
 * with {@code -Pinterop}.
 */
@ExtendWith(PostgresExtension.class)
class SparkPinnedJobIT {
  @TempDir Path warehouse;

  @Test
  void thePinnedStatesSparkSqlReturnsMeterStoresAnswerAfterDaysOfMaintenance(TestDatabase db)
      throws Exception {
    try (InteropStore store = InteropStore.build(db, warehouse)) {
      List<String> atPin = store.totals("\"" + InteropStore.TABLE + "\"");
      InteropStore.Pinned pin = store.pin("spark settlement job");
      assertThat(pin.sparkSql()).contains("VERSION AS OF " + pin.snapshotId());
      store.maintainWhilePinned(2);

      Map<String, SparkSql.Result> spark =
          SparkSql.run(
              store,
              SparkSql.workDir(SparkPinnedJobIT.class),
              Map.of(
                  "pinned_totals",
                  "SELECT COUNT(*) AS n, SUM(`value`) AS total FROM (" + pin.sparkSql() + ") f"));
      List<String> row = spark.get("pinned_totals").single();
      assertThat(List.of(row.get(0), InteropStore.plain(new BigDecimal(row.get(1)))))
          .isEqualTo(atPin);
    }
  }
}
