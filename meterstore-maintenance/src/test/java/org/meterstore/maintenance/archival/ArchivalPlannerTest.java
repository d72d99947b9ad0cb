package org.meterstore.maintenance.archival;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ArchivalPlannerTest {
  private static final Instant EPOCH = Instant.EPOCH;
  private static final Duration LAG = Duration.ofDays(3);
  private static final Duration GRACE = Duration.ofHours(1);

  private static Instant day(int d) {
    return Instant.parse("2026-05-01T00:00:00Z").plus(Duration.ofDays(d - 1L));
  }

  private static ObservedPartition attached(int d) {
    return ObservedPartition.attached("p" + d, day(d), day(d + 1));
  }

  private static List<ObservedPartition> attachedDays(int first, int last) {
    List<ObservedPartition> list = new ArrayList<>();
    for (int d = first; d <= last; d++) {
      list.add(attached(d));
    }
    return list;
  }

  private static ArchivalPlan plan(Instant w, List<ObservedPartition> parts, int max, Instant now) {
    return ArchivalPlanner.plan(w, parts, Set.of(), LAG, GRACE, max, now);
  }

  @Test
  void windowsAreDueOnceTheirEndIsSettlementLagOld() {
    // now = day 10 00:00; due when end <= day 7 00:00: days 1..6
    ArchivalPlan plan = plan(day(1), attachedDays(1, 12), 100, day(10));
    assertThat(plan.windows())
        .extracting(ArchivalWindow::partition)
        .containsExactly("p1", "p2", "p3", "p4", "p5", "p6");
    assertThat(plan.windows().get(0).from()).isEqualTo(day(1));
    assertThat(plan.windows()).allSatisfy(w -> assertThat(w.resumed()).isFalse());
    assertThat(plan.watermarkAfter()).isEqualTo(day(7));
    // one second earlier, day 6 is not yet due
    assertThat(plan(day(1), attachedDays(1, 12), 100, day(10).minusSeconds(1)).watermarkAfter())
        .isEqualTo(day(6));
  }

  @Test
  void anEmptyGapIsJumpedInOneWindow() {
    ArchivalPlan plan = plan(EPOCH, attachedDays(3, 5), 100, day(30));
    assertThat(plan.windows()).hasSize(3);
    assertThat(plan.windows().get(0)).isEqualTo(new ArchivalWindow("p3", EPOCH, day(4), false));
    assertThat(plan.watermarkAfter()).isEqualTo(day(6));
  }

  @Test
  void anIdleTableWithoutPartitionsHasNothingDue() {
    ArchivalPlan plan = plan(EPOCH, List.of(), 8, day(30));
    assertThat(plan.nothingDue()).isTrue();
    assertThat(plan.watermarkAfter()).isEqualTo(EPOCH);
  }

  @Test
  void aRunArchivesAtMostMaxWindows() {
    ArchivalPlan plan = plan(day(1), attachedDays(1, 31), 8, day(40));
    assertThat(plan.windows()).hasSize(8);
    assertThat(plan.watermarkAfter()).isEqualTo(day(9));
  }

  @Test
  void theDetachedNextWindowIsResumed() {
    List<ObservedPartition> parts = attachedDays(2, 10);
    parts.add(ObservedPartition.detached("p1", day(1), day(2), null));
    ArchivalPlan plan = plan(day(1), parts, 2, day(30));
    assertThat(plan.windows())
        .containsExactly(
            new ArchivalWindow("p1", day(1), day(2), true),
            new ArchivalWindow("p2", day(2), day(3), false));
    assertThat(plan.stranded()).isEmpty();
  }

  @Test
  void aDetachedPartitionThatIsNotTheNextWindowIsStrandedAndNeverPassed() {
    List<ObservedPartition> parts = attachedDays(1, 2);
    parts.add(ObservedPartition.detached("p3", day(3), day(4), null));
    parts.addAll(attachedDays(4, 6));
    ArchivalPlan plan = plan(day(1), parts, 100, day(30));
    assertThat(plan.windows()).extracting(ArchivalWindow::partition).containsExactly("p1", "p2");
    assertThat(plan.stranded()).extracting(ObservedPartition::name).containsExactly("p3");
    assertThat(plan.watermarkAfter()).isEqualTo(day(3));
  }

  @Test
  void aPartitionStraddlingTheWatermarkIsStranded() {
    Instant w = day(1).plus(Duration.ofHours(12));
    ArchivalPlan plan = plan(w, attachedDays(1, 3), 100, day(30));
    assertThat(plan.windows()).isEmpty();
    assertThat(plan.stranded()).extracting(ObservedPartition::name).containsExactly("p1");
    assertThat(plan.attachedBelowWatermark())
        .extracting(ObservedPartition::name)
        .containsExactly("p1");
  }

  @Test
  void archivedPartitionsAreReclaimedOnlyAfterTheGraceAndWhenNotPinned() {
    Instant now = day(20);
    List<ObservedPartition> parts =
        List.of(
            ObservedPartition.detached("old", day(1), day(2), now.minus(GRACE)),
            ObservedPartition.detached("fresh", day(2), day(3), now.minus(GRACE).plusSeconds(1)),
            ObservedPartition.detached("pinned", day(3), day(4), now.minus(Duration.ofDays(1))),
            ObservedPartition.detached("unknown", day(4), day(5), null));
    ArchivalPlan plan = ArchivalPlanner.plan(day(5), parts, Set.of("pinned"), LAG, GRACE, 8, now);
    assertThat(plan.reclaimable()).extracting(ObservedPartition::name).containsExactly("old");
    assertThat(plan.awaitingGrace())
        .extracting(ObservedPartition::name)
        .containsExactly("fresh", "pinned", "unknown");
  }

  @Test
  void aPartitionTheWatermarkDoesNotCoverIsNeverReclaimable() {
    Instant now = day(30);
    ObservedPartition above = ObservedPartition.detached("p5", day(5), day(6), day(1));
    ArchivalPlan plan = plan(day(5).plusSeconds(1), List.of(above), 8, now);
    assertThat(plan.reclaimable()).isEmpty();
    assertThat(plan.stranded()).containsExactly(above);
  }

  @Test
  void attachedPartitionsBelowTheWatermarkAreInvariantSuspects() {
    ArchivalPlan plan = plan(day(3), attachedDays(1, 4), 8, day(4));
    assertThat(plan.attachedBelowWatermark())
        .extracting(ObservedPartition::name)
        .containsExactly("p1", "p2");
  }

  @Test
  void anAttachedPartitionBelowTheWatermarkThatACommitCoversLostItsDetach() {
    Instant now = day(10);
    List<ObservedPartition> parts =
        List.of(
            new ObservedPartition("lost", day(1), day(2), true, day(3)),
            ObservedPartition.attached("suspect", day(2), day(3)),
            ObservedPartition.detached("archived", day(3), day(4), day(5)),
            new ObservedPartition("straddles", day(4), day(5), true, day(5)));
    ArchivalPlan plan = plan(day(4).plus(Duration.ofHours(12)), parts, 8, now);
    assertThat(plan.lostDetaches()).extracting(ObservedPartition::name).containsExactly("lost");
    assertThat(plan.attachedBelowWatermark())
        .extracting(ObservedPartition::name)
        .containsExactly("lost", "suspect", "straddles");
  }

  @Test
  void refusesANonPositiveWindowLimit() {
    assertThatThrownBy(() -> plan(EPOCH, List.of(), 0, day(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxWindows");
  }
}
