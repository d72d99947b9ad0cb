package org.meterstore.hot.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.Version;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.Fixtures;
import org.meterstore.hot.HotStore;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * Random delivery sequences (seeded) against a small reference model of DESIGN § 3.3: per merge key
 * and scope the versions stored with their {@code recorded_at}; a new version is INSERTED when it
 * is the first, SUPERSEDED when it outranks the current winner (higher version, ties by later
 * {@code recorded_at}), SHADOWED otherwise; a stored version again is DUPLICATE. Operator and
 * arrival versions (13-digit epoch milliseconds of {@code now}) are mixed, and keys span two
 * balancing months, so two version scopes.
 */
@ExtendWith(PostgresExtension.class)
class OutcomeModelIT {
  private static final String SCHEMA = "meterstore";
  private static final List<Instant> STARTS =
      List.of(
          Instant.parse("2026-02-28T22:45:00Z"),
          Instant.parse("2026-02-28T23:00:00Z"),
          Instant.parse("2026-03-02T10:00:00Z"),
          Instant.parse("2026-03-02T10:15:00Z"));
  private static final List<String> OPERATOR_VERSIONS =
      List.of("20260301000000", "20260302000000", "20260303000000");

  private static HotStore store;

  @BeforeAll
  static void open(TestDatabase db) {
    store = Fixtures.store(db, SCHEMA, Duration.ofSeconds(3));
  }

  @AfterAll
  static void close() {
    store.close();
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 7, 42, 2026, 31337})
  void outcomesMatchTheReferenceModel(long seed, TestDatabase db) throws SQLException {
    TableDefinition table = TableDefinition.interval("model_" + seed);
    store.createTables(List.of(table), Fixtures.NOW);
    Random random = new Random(seed);
    Map<String, TreeMap<BigInteger, Instant>> model = new HashMap<>();
    Instant now = Fixtures.NOW;
    for (int batchNo = 0; batchNo < 25; batchNo++) {
      now = now.plusSeconds(1 + random.nextInt(5));
      List<Reading> batch = new ArrayList<>();
      List<WriteOutcome> expected = new ArrayList<>();
      int size = 1 + random.nextInt(6);
      for (int i = 0; i < size; i++) {
        int meter = random.nextInt(3);
        Instant from = STARTS.get(random.nextInt(STARTS.size()));
        String version = random.nextInt(4) == 0 ? null : OPERATOR_VERSIONS.get(random.nextInt(3));
        BigInteger effective =
            version == null ? Version.arrival(now).value() : new BigInteger(version);
        batch.add(reading(meter, from, version, effective));
        expected.add(expect(model, meter + "/" + from, effective, now));
      }
      WriteResult result = store.write(table, batch, now);
      assertThat(result.outcomes()).as("batch %d of seed %d", batchNo, seed).isEqualTo(expected);
    }
    assertThat(storedVersions(db, table)).isEqualTo(modelVersions(model));
  }

  /** The model's outcome for one delivery, and the model updated with it. */
  private static WriteOutcome expect(
      Map<String, TreeMap<BigInteger, Instant>> model, String key, BigInteger v, Instant now) {
    TreeMap<BigInteger, Instant> versions = model.computeIfAbsent(key, k -> new TreeMap<>());
    if (versions.containsKey(v)) {
      return WriteOutcome.DUPLICATE;
    }
    WriteOutcome outcome;
    if (versions.isEmpty()) {
      outcome = WriteOutcome.INSERTED;
    } else {
      BigInteger winner = versions.lastKey();
      boolean outranks =
          v.compareTo(winner) > 0 || (v.equals(winner) && now.isAfter(versions.get(winner)));
      outcome = outranks ? WriteOutcome.SUPERSEDED : WriteOutcome.SHADOWED;
    }
    versions.put(v, now);
    return outcome;
  }

  /** The value is a function of meter, start and version, so a redelivery never restates it. */
  private static Reading reading(int meter, Instant from, String version, BigInteger effective) {
    String value =
        "0." + Math.abs((meter * 31 + from.getEpochSecond() + effective.longValue()) % 997);
    return Fixtures.quarterHour(meter, from, value, version).build();
  }

  private static Map<String, List<String>> modelVersions(
      Map<String, TreeMap<BigInteger, Instant>> model) {
    Map<String, List<String>> versions = new TreeMap<>();
    model.forEach(
        (key, v) -> {
          if (!v.isEmpty()) {
            String[] parts = key.split("/");
            versions.put(
                Fixtures.malo(Integer.parseInt(parts[0])) + "/" + parts[1],
                v.keySet().stream().map(BigInteger::toString).toList());
          }
        });
    return versions;
  }

  private static Map<String, List<String>> storedVersions(TestDatabase db, TableDefinition table)
      throws SQLException {
    Map<String, List<String>> versions = new TreeMap<>();
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT malo_id, \"from\", version FROM \""
                    + SCHEMA
                    + "\".\""
                    + table.name()
                    + "\" ORDER BY malo_id, \"from\", version")) {
      while (rs.next()) {
        String key =
            rs.getString(1) + "/" + rs.getObject(2, java.time.OffsetDateTime.class).toInstant();
        versions
            .computeIfAbsent(key, k -> new ArrayList<>())
            .add(rs.getBigDecimal(3).toBigInteger().toString());
      }
    }
    return versions;
  }
}
