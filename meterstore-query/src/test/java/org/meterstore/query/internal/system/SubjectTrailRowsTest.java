package org.meterstore.query.internal.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.Year;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.meterstore.hot.subject.SubjectRef;
import org.meterstore.hot.subject.TrailAction;
import org.meterstore.hot.subject.TrailEntry;
import org.meterstore.hot.subject.Trigger;

class SubjectTrailRowsTest {
  private static final SubjectRef A = SubjectRef.parse("s2025_AAAAAAAAAAAAAAAAAAAAAA");
  private static final SubjectRef B = SubjectRef.parse("s2025_BBBBBBBBBBBBBBBBBBBBBB");
  private static final Instant AT = Instant.parse("2029-01-01T00:00:00Z");

  @Test
  void aSweepErasureBecomesOneRowWithItsReferencesJoined() {
    TrailEntry sweep =
        new TrailEntry(
            7,
            AT,
            TrailAction.ERASE,
            Trigger.RETENTION,
            List.of(A, B),
            2,
            "§ 60 Abs. 6 MsbG",
            "maintenance",
            null,
            Year.of(2025),
            null);
    assertThat(SubjectTrailRows.row(sweep))
        .containsExactly(
            7L,
            AT.toEpochMilli(),
            "erase",
            "retention",
            A.value() + "," + B.value(),
            2,
            "§ 60 Abs. 6 MsbG",
            "maintenance",
            null,
            2025,
            null);
  }

  @Test
  void aHoldKeepsItsEndAndHasNoTrigger() {
    Instant until = Instant.parse("2031-06-30T00:00:00Z");
    TrailEntry hold =
        new TrailEntry(
            8,
            AT,
            TrailAction.HOLD,
            null,
            List.of(A),
            1,
            "Az. 4 O 12/26",
            "legal",
            until,
            null,
            null);
    Object[] row = SubjectTrailRows.row(hold);
    assertThat(row[2]).isEqualTo("hold");
    assertThat(row[3]).isNull();
    assertThat(row[4]).isEqualTo(A.value());
    assertThat(row[8]).isEqualTo(until.toEpochMilli());
    TrailEntry lift =
        new TrailEntry(
            9,
            AT,
            TrailAction.LIFT_SUPPRESSION,
            null,
            List.of(),
            1,
            "error",
            "dpo",
            null,
            null,
            null);
    assertThat(SubjectTrailRows.row(lift)[2]).isEqualTo("lift_suppression");
    assertThat(SubjectTrailRows.row(lift)[4]).isEqualTo("");
  }
}
