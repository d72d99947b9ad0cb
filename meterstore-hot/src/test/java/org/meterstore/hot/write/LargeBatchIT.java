package org.meterstore.hot.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.meterstore.hot.Fixtures.DAY;
import static org.meterstore.hot.Fixtures.NOW;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.ExtraColumn;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.Fixtures;
import org.meterstore.hot.HotStore;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * Batches large enough for the writer's {@code COPY} path (1,000 new rows or more): every value
 * arrives as written — text with tabs, line breaks, backslashes, quotes and non-ASCII characters in
 * {@code provenance}, {@code source_kind} and an identity column, nulls as nulls — a redelivery is
 * all {@code DUPLICATE}, and a batch whose last reading restates a stored value is refused whole
 * with nothing added.
 */
@ExtendWith(PostgresExtension.class)
class LargeBatchIT {
  private static final String SCHEMA = "large_batch";
  private static final String VERSION = "20260303000000";
  private static final TableDefinition TABLE =
      TableDefinition.interval("lastgang")
          .withExtraColumns(List.of(ExtraColumn.identity("tenant")));
  // the same with a grid: dense batches read their stored versions by ranges, and the keys of the
  // rows found (with the identity column's texts) must equal the batch's
  private static final TableDefinition GRID =
      TableDefinition.interval("lastgang_grid")
          .withResolution(Resolution.PT15M)
          .withExtraColumns(List.of(ExtraColumn.identity("tenant")));
  private static final String[] TEXTS = {
    "tab\there",
    "line\nbreak",
    "carriage\rreturn",
    "back\\slash \\N",
    "quote \" and ' both",
    "Zählerstand größer",
    "plain"
  };

  private static HotStore store;

  @BeforeAll
  static void createTable(TestDatabase db) {
    store = Fixtures.store(db, SCHEMA, Duration.ofSeconds(3));
    store.createTables(List.of(TABLE, GRID), NOW);
  }

  @AfterAll
  static void close() {
    store.close();
  }

  @Test
  void aLargeBatchStoresEveryValueAsWrittenAndItsRedeliveryIsDuplicate(TestDatabase db)
      throws SQLException {
    List<Reading> batch = batch(0, 13); // 13 meter-days: 1,248 readings
    WriteResult first = store.write(TABLE, batch, NOW);
    assertThat(first.outcomes()).hasSize(batch.size()).containsOnly(WriteOutcome.INSERTED);

    List<String> stored =
        texts(
            db,
            "SELECT malo_id || '|' || extract(epoch from \"from\")::bigint || '|' || \"value\" || '|' || coalesce(provenance,"
                + " '<null>') || '|' || coalesce(source_kind, '<null>') || '|' || tenant FROM "
                + SCHEMA
                + ".lastgang ORDER BY malo_id, \"from\"");
    List<String> expected = new ArrayList<>();
    for (Reading r : batch) {
      expected.add(
          r.maloId()
              + "|"
              + r.from().getEpochSecond()
              + "|"
              + r.value().setScale(6).toPlainString()
              + "|"
              + (r.provenance() == null ? "<null>" : r.provenance())
              + "|"
              + (r.sourceKind() == null ? "<null>" : r.sourceKind())
              + "|"
              + r.extra().get("tenant"));
    }
    expected.sort(null);
    List<String> actual = new ArrayList<>(stored);
    actual.sort(null);
    assertThat(actual).containsExactlyElementsOf(expected);

    WriteResult again = store.write(TABLE, batch, NOW.plusSeconds(60));
    assertThat(again.outcomes()).hasSize(batch.size()).containsOnly(WriteOutcome.DUPLICATE);
    assertThat(count(db)).isEqualTo(batch.size());
  }

  @Test
  void onAGridTheRangesFindEveryStoredKeyWithItsIdentityTexts(TestDatabase db) throws SQLException {
    List<Reading> batch = batch(300, 13);
    assertThat(store.write(GRID, batch, NOW).outcomes()).containsOnly(WriteOutcome.INSERTED);

    // every tenth reading under another tenant: a new key beside the stored one
    List<Reading> again = new ArrayList<>(batch);
    for (int i = 0; i < again.size(); i += 10) {
      again.set(i, again.get(i).toBuilder().extra("tenant", "other ä\t" + i).build());
    }
    WriteResult result = store.write(GRID, again, NOW.plusSeconds(60));
    for (int i = 0; i < again.size(); i++) {
      assertThat(result.outcomes().get(i))
          .as("reading %s", i)
          .isEqualTo(i % 10 == 0 ? WriteOutcome.INSERTED : WriteOutcome.DUPLICATE);
    }
    assertThat(store.write(GRID, again, NOW.plusSeconds(120)).outcomes())
        .containsOnly(WriteOutcome.DUPLICATE);
    assertThat(Fixtures.scalar(db, "SELECT count(*) FROM " + SCHEMA + ".lastgang_grid"))
        .isEqualTo(batch.size() + (batch.size() + 9) / 10);
  }

  @Test
  void aLargeBatchRestatingAStoredValueIsRefusedWholeWithNothingAdded(TestDatabase db)
      throws SQLException {
    List<Reading> stored = batch(100, 1);
    store.write(TABLE, stored, NOW);
    long before = count(db);
    List<Reading> batch = new ArrayList<>(batch(200, 12));
    batch.add(stored.get(5).toBuilder().value("9.999").build());

    assertThatThrownBy(() -> store.write(TABLE, batch, NOW))
        .isInstanceOfSatisfying(
            MeterStoreException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.INTEGRITY_VIOLATION);
              assertThat(e.getMessage()).contains("restates version " + VERSION);
            });
    assertThat(count(db)).isEqualTo(before);
  }

  @Test
  void aLargeBatchTheServerRefusesMidCopyAddsNothingAndTheWriterGoesOn(TestDatabase db)
      throws SQLException {
    List<Reading> stored = batch(400, 1);
    store.write(TABLE, stored, NOW);
    long before = count(db);
    // twelve meter-days (over 200 KB of COPY text, sent in pieces), then a span that overlaps a
    // stored one of the same reading and version: only the server's constraint sees it, while the
    // rows are being copied
    List<Reading> batch = new ArrayList<>(batch(500, 12));
    Instant from = stored.get(0).from().plus(Duration.ofMinutes(5));
    batch.add(
        stored.get(0).toBuilder()
            .resolution(null)
            .interval(from, from.plus(Duration.ofMinutes(15)))
            .build());

    assertThatThrownBy(() -> store.write(TABLE, batch, NOW))
        .isInstanceOfSatisfying(
            MeterStoreException.class,
            e -> assertThat(e.kind()).isEqualTo(ErrorKind.INTEGRITY_VIOLATION))
        .hasMessageContaining("overlaps a stored span");
    assertThat(count(db)).isEqualTo(before);
    // the connections left COPY mode: the same rows without the overlap are stored
    assertThat(store.write(TABLE, batch.subList(0, batch.size() - 1), NOW).stored())
        .isEqualTo(batch.size() - 1);
  }

  /** {@code days} meter-days of meters {@code first}…, texts with every character COPY escapes. */
  private static List<Reading> batch(int first, int days) {
    List<Reading> out = new ArrayList<>();
    for (int m = first; m < first + days; m++) {
      for (Reading r : Fixtures.day(m, DAY, VERSION)) {
        int i = out.size();
        out.add(
            r.toBuilder()
                .provenance(i % 5 == 0 ? null : TEXTS[i % TEXTS.length])
                .sourceKind(i % 7 == 0 ? null : TEXTS[(i + 3) % TEXTS.length])
                .extra("tenant", "tenant\t" + TEXTS[(i + 5) % TEXTS.length])
                .build());
      }
    }
    return out;
  }

  private static long count(TestDatabase db) throws SQLException {
    return Fixtures.scalar(db, "SELECT count(*) FROM " + SCHEMA + ".lastgang");
  }

  private static List<String> texts(TestDatabase db, String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }
}
