package org.meterstore.hot.pin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.Fixtures;
import org.meterstore.hot.HotStore;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

@ExtendWith(PostgresExtension.class)
class ReaderPinsIT {
  private static final Instant NOW = Fixtures.NOW;
  private static final Instant D1 = Instant.parse("2026-03-01T00:00:00Z");
  private static final Instant D2 = Instant.parse("2026-03-02T00:00:00Z");
  private static final Instant D3 = Instant.parse("2026-03-03T00:00:00Z");
  private static HotStore store;
  private static HotStore otherProcess;

  @BeforeAll
  static void open(TestDatabase db) {
    store = Fixtures.store(db, "meterstore", Duration.ofSeconds(3));
    store.createTables(List.of(TableDefinition.interval("lastgang")), NOW);
    otherProcess = Fixtures.store(db, "meterstore", Duration.ofSeconds(3));
  }

  @AfterAll
  static void close() {
    store.close();
    otherProcess.close();
  }

  @Test
  void aPinIsSeenByEveryStoreOnTheDatabaseUntilReleased() {
    ReaderPin pin = store.pins().pin("lastgang", D1, D3, NOW, Duration.ofMinutes(30));
    assertThat(otherProcess.pins().active("lastgang", NOW)).contains(pin);
    assertThat(pin.overlaps(D2, D3)).isTrue();
    assertThat(pin.overlaps(D3, D3.plusSeconds(86_400))).isFalse();
    store.pins().release(pin.id());
    assertThat(otherProcess.pins().active("lastgang", NOW)).doesNotContain(pin);
    store.pins().release(pin.id());
  }

  @Test
  void aPinLapsesAtItsExpiryEvenIfNeverReleased() {
    ReaderPin pin = store.pins().pin("lastgang", D1, D2, NOW, Duration.ofMinutes(5));
    assertThat(store.pins().active("lastgang", NOW.plus(Duration.ofMinutes(5)).minusMillis(1)))
        .contains(pin);
    Instant later = NOW.plus(Duration.ofMinutes(5));
    assertThat(store.pins().active("lastgang", later)).doesNotContain(pin);
    assertThat(store.pins().purgeExpired(later)).isGreaterThanOrEqualTo(1);
  }

  @Test
  void refusesEmptyWindowsAndUnknownTables() {
    assertThatThrownBy(() -> store.pins().pin("lastgang", D2, D2, NOW, Duration.ofMinutes(1)))
        .isInstanceOfSatisfying(
            MeterStoreException.class,
            e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT));
    assertThatThrownBy(() -> store.pins().pin("nosuch", D1, D2, NOW, Duration.ofMinutes(1)))
        .isInstanceOf(MeterStoreException.class);
  }

  @Test
  void aViewListsThePartitionsAndTheCommittedWatermarkAndPinsInTheSameRoundTrip() {
    TableDefinition def = TableDefinition.interval("lastgang");
    ReaderView view = store.pins().view(def, D2, D3, NOW, Duration.ofMinutes(10));
    assertThat(view.partitions()).isEqualTo(store.partitions().list(def));
    assertThat(view.committedWatermark()).isEqualTo(store.partitions().committedWatermark(def));
    assertThat(view.pin()).isNotNull();
    assertThat(otherProcess.pins().active("lastgang", NOW)).contains(view.pin());
    store.pins().release(view.pin().id());
    assertThat(otherProcess.pins().active("lastgang", NOW)).doesNotContain(view.pin());

    ReaderView unpinned = store.pins().view(def, null, null, NOW, Duration.ofMinutes(10));
    assertThat(unpinned.pin()).isNull();
    assertThat(unpinned.partitions()).isEqualTo(view.partitions());
  }

  @Test
  void aViewOfAMissingTableFailsTypedAndLeavesNoPinAndNoBrokenConnection() {
    TableDefinition missing = TableDefinition.interval("nosuch");
    assertThatThrownBy(() -> store.pins().view(missing, null, null, NOW, Duration.ofMinutes(1)))
        .isInstanceOfSatisfying(
            MeterStoreException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.CONFIG));
    assertThatThrownBy(() -> store.pins().view(missing, D1, D2, NOW, Duration.ofMinutes(1)))
        .isInstanceOf(MeterStoreException.class);
    assertThat(store.pins().active("nosuch", NOW)).isEmpty();
    // every pooled connection still answers: none was handed back inside an aborted transaction
    for (int i = 0; i < 20; i++) {
      assertThat(
              store
                  .pins()
                  .view(
                      TableDefinition.interval("lastgang"), null, null, NOW, Duration.ofMinutes(1))
                  .pin())
          .isNull();
    }
  }
}
