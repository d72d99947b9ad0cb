package org.meterstore.hot.subject;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.meterstore.hot.Fixtures.NOW;
import static org.meterstore.hot.subject.PrivacyFixtures.ACTOR;
import static org.meterstore.hot.subject.PrivacyFixtures.REASON;
import static org.meterstore.hot.subject.PrivacyFixtures.secret;

import io.opentelemetry.api.common.Attributes;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.hot.Fixtures;
import org.meterstore.hot.HotStore;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/** The suppression list: replayed data cannot bring an erased person back, across key rotation. */
@ExtendWith(PostgresExtension.class)
class SuppressionIT {
  private static final ErasureKeys K1 = ErasureKeys.single("k1", secret(1));
  private static final ErasureKeys K1_RETIRED_K2_CURRENT =
      ErasureKeys.of("k2", Map.of("k1", secret(1), "k2", secret(2)));
  private static final ErasureKeys K2_ONLY = ErasureKeys.single("k2", secret(2));
  private static final Instant AT = Fixtures.DAY;

  private static int schemas;

  private TestDatabase database;
  private String schema;
  private PrivacyFixtures.Metrics metrics;

  @BeforeEach
  void newSchema(TestDatabase db) {
    database = db;
    schema = "suppression_" + ++schemas;
    metrics = new PrivacyFixtures.Metrics();
  }

  @AfterEach
  void closeMetrics() {
    metrics.close();
  }

  @Test
  void aReplayedRegistrationOfAnErasedIdentifierIsRefusedAndCounted() {
    try (HotStore store = open(K1)) {
      Subjects subjects = store.subjects();
      subjects.registerSubject("VK-100200", AT, Commodity.STROM, NOW);
      assertThat(subjects.eraseSubject("VK-100200", REASON, ACTOR, NOW).suppressed()).isTrue();

      MeterStoreException e = refusedRegistration(subjects, " vk-100200 ");

      assertThat(e.kind()).isEqualTo(ErrorKind.INTEGRITY_VIOLATION);
      assertThat(e.isRetryable()).isFalse();
      assertThat(e.getMessage()).contains("suppression list", "k1").doesNotContain("100200");
      assertThat(metrics.sum("meterstore.registrations_suppressed", Attributes.empty()))
          .isEqualTo(1);
      assertThat(metrics.points("meterstore.registrations_suppressed")).hasSize(1);
      // another person is not affected
      assertThat(subjects.registerSubject("VK-100201", AT, Commodity.STROM, NOW).year().getValue())
          .isEqualTo(2026);
    }
  }

  @Test
  void anIdentifierErasedBeforeItWasEverRegisteredIsSuppressedToo() {
    try (HotStore store = open(K1)) {
      ErasureResult result = store.subjects().eraseSubject("VK-300", REASON, ACTOR, NOW);
      assertThat(result.count()).isZero();
      assertThat(result.suppressionKeyId()).isEqualTo("k1");
      assertThat(refusedRegistration(store.subjects(), "VK-300").kind())
          .isEqualTo(ErrorKind.INTEGRITY_VIOLATION);
    }
  }

  @Test
  void afterAKeyRotationTheOldEntriesStillMatchAndTheNewKeyWrites() throws SQLException {
    try (HotStore before = open(K1)) {
      before.subjects().eraseSubject("VK-OLD", REASON, ACTOR, NOW);
    }
    try (HotStore rotated = open(K1_RETIRED_K2_CURRENT)) {
      Subjects subjects = rotated.subjects();
      assertThat(refusedRegistration(subjects, "VK-OLD").getMessage()).contains("(key k1)");
      assertThat(subjects.eraseSubject("VK-NEW", REASON, ACTOR, NOW).suppressionKeyId())
          .isEqualTo("k2");
      assertThat(refusedRegistration(subjects, "VK-NEW").getMessage()).contains("(key k2)");
      assertThat(subjects.suppressionKeysMissing()).isEmpty();
    }
    assertThat(metrics.sum("meterstore.registrations_suppressed", Attributes.empty())).isEqualTo(2);
    assertThat(
            Fixtures.scalar(
                database,
                "SELECT count(*) FROM " + schema + ".subject_suppressions WHERE key_id = 'k2'"))
        .isEqualTo(1);
  }

  @Test
  void aKeyRemovedFromTheRingIsReportedInsteadOfSilentlyIgnored() {
    try (HotStore before = open(K1)) {
      before.subjects().eraseSubject("VK-GONE", REASON, ACTOR, NOW);
    }
    try (HotStore rotated = open(K1_RETIRED_K2_CURRENT)) {
      rotated.subjects().eraseSubject("VK-STAYS", REASON, ACTOR, NOW);
    }
    try (HotStore tooEarly = open(K2_ONLY);
        HotStore keyless = open(null)) {
      assertThat(tooEarly.subjects().suppressionKeysMissing()).containsExactly("k1");
      assertThat(keyless.subjects().suppressionKeysMissing()).containsExactly("k1", "k2");
      // which is why it is reported: an entry whose key is gone matches nothing any more
      assertThat(refusedRegistration(tooEarly.subjects(), "VK-STAYS").getMessage())
          .contains("(key k2)");
      assertThat(tooEarly.subjects().registerSubject("VK-GONE", AT, Commodity.STROM, NOW))
          .isNotNull();
    }
  }

  @Test
  void liftingASuppressionIsAuditedAndLetsTheIdentifierRegisterAgain() {
    try (HotStore rotated = open(K1)) {
      rotated.subjects().eraseSubject("VK-LIFT", REASON, ACTOR, NOW);
    }
    try (HotStore store = open(K1_RETIRED_K2_CURRENT)) {
      Subjects subjects = store.subjects();
      subjects.eraseSubject("VK-LIFT", "second request", ACTOR, NOW);

      assertThat(subjects.liftSuppression("VK-LIFT", "erased by mistake, ticket 9", ACTOR, NOW))
          .isEqualTo(2);

      assertThat(subjects.registerSubject("VK-LIFT", AT, Commodity.STROM, NOW)).isNotNull();
      List<TrailEntry> trail = subjects.trail(NOW, NOW.plusSeconds(1), 100);
      TrailEntry lift = trail.get(trail.size() - 1);
      assertThat(lift.action()).isEqualTo(TrailAction.LIFT_SUPPRESSION);
      assertThat(lift.affected()).isEqualTo(2);
      assertThat(lift.reason()).isEqualTo("erased by mistake, ticket 9");
      assertThat(lift.references()).isEmpty();
    }
  }

  @Test
  void withoutKeysAnErasureSuppressesNothingAndLiftingIsAConfigurationError() {
    try (HotStore store = open(null)) {
      Subjects subjects = store.subjects();
      subjects.registerSubject("VK-NOKEY", AT, Commodity.STROM, NOW);
      ErasureResult result = subjects.eraseSubject("VK-NOKEY", REASON, ACTOR, NOW);
      assertThat(result.count()).isEqualTo(1);
      assertThat(result.suppressed()).isFalse();
      assertThat(subjects.registerSubject("VK-NOKEY", AT, Commodity.STROM, NOW)).isNotNull();
      MeterStoreException e =
          catchThrowableOfType(
              MeterStoreException.class,
              () -> subjects.liftSuppression("VK-NOKEY", "no reason", ACTOR, NOW));
      assertThat(e.kind()).isEqualTo(ErrorKind.CONFIG);
    }
  }

  private HotStore open(ErasureKeys keys) {
    HotStore store = PrivacyFixtures.store(database, schema, keys, metrics);
    store.createTables(List.of(), NOW);
    return store;
  }

  private static MeterStoreException refusedRegistration(Subjects subjects, String naturalId) {
    return catchThrowableOfType(
        MeterStoreException.class,
        () -> subjects.registerSubject(naturalId, AT, Commodity.STROM, NOW));
  }
}
