package org.meterstore.cold.internal.compact;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.meterstore.cold.internal.compact.CompactionPlanner.FileStats;
import org.meterstore.cold.internal.compact.CompactionPlanner.Group;

class CompactionPlannerTest {
  private static final long TARGET = 128L << 20;
  private static final int JANUARY = 672; // months since 1970-01: 2026-01
  private static final Instant W_IN_FEBRUARY = Instant.parse("2026-02-10T00:00:00Z");

  private static FileStats file(String name, int month, long size, long seq, Object version) {
    return new FileStats(name, 0, "from_month=" + month, month, size, seq, version, false);
  }

  @Test
  void rewritesTheSmallFilesOfAMonthThatEndedBeforeW() {
    List<FileStats> files =
        List.of(
            file("a", JANUARY, 1_000, 1, null),
            file("b", JANUARY, 2_000, 2, null),
            file("big", JANUARY, TARGET, 3, null),
            file("c", JANUARY + 1, 1_000, 4, null),
            file("d", JANUARY + 1, 1_000, 5, null));

    List<Group> groups = CompactionPlanner.plan(files, 0, W_IN_FEBRUARY, TARGET, 12);

    assertThat(groups).hasSize(1);
    assertThat(groups.get(0).files()).extracting(FileStats::location).containsExactly("a", "b");
    assertThat(groups.get(0).bytes()).isEqualTo(3_000);
  }

  @Test
  void aMonthIsClosedExactlyWhenItEndsAtOrBeforeW() {
    assertThat(CompactionPlanner.closed(JANUARY, Instant.parse("2026-02-01T00:00:00Z"))).isTrue();
    assertThat(CompactionPlanner.closed(JANUARY, Instant.parse("2026-01-31T23:59:59Z"))).isFalse();
    assertThat(CompactionPlanner.closed(null, Instant.parse("2030-01-01T00:00:00Z"))).isFalse();
  }

  @Test
  void leavesAMonthWithOneSmallFileDeleteFilesOrAnotherSpecAlone() {
    List<FileStats> files =
        List.of(
            file("lonely", JANUARY - 1, 1_000, 1, null),
            file("x", JANUARY, 1_000, 2, null),
            new FileStats("y", 0, "from_month=" + JANUARY, JANUARY, 1_000, 3, null, true),
            new FileStats("old1", 1, "p", JANUARY - 2, 1_000, 1, null, false),
            new FileStats("old2", 1, "p", JANUARY - 2, 1_000, 1, null, false));

    assertThat(CompactionPlanner.plan(files, 0, W_IN_FEBRUARY, TARGET, 12)).isEmpty();
  }

  @Test
  void refusesToMergeOneVersionFromSeveralCommitsIntoOneFile() {
    BigDecimal v = new BigDecimal("20260101000000");
    List<FileStats> sameVersionTwoCommits =
        List.of(file("a", JANUARY, 1_000, 1, v), file("b", JANUARY, 1_000, 2, v));
    List<FileStats> sameVersionOneCommit =
        List.of(file("a", JANUARY, 1_000, 1, v), file("b", JANUARY, 1_000, 1, v));
    List<FileStats> twoVersions =
        List.of(
            file("a", JANUARY, 1_000, 1, v),
            file("b", JANUARY, 1_000, 2, new BigDecimal("20260201000000")));

    assertThat(CompactionPlanner.plan(sameVersionTwoCommits, 0, W_IN_FEBRUARY, TARGET, 12))
        .isEmpty();
    assertThat(CompactionPlanner.plan(sameVersionOneCommit, 0, W_IN_FEBRUARY, TARGET, 12))
        .hasSize(1);
    assertThat(CompactionPlanner.plan(twoVersions, 0, W_IN_FEBRUARY, TARGET, 12)).hasSize(1);
  }

  @Test
  void boundsTheMonthsPerCallAndTheFilesPerGroup() {
    List<FileStats> files = new ArrayList<>();
    for (int m = 0; m < 3; m++) {
      files.add(file("a" + m, JANUARY - m, 1_000, 1, null));
      files.add(file("b" + m, JANUARY - m, 1_000, 2, null));
    }
    for (int i = 0; i < CompactionPlanner.MAX_FILES_PER_GROUP + 1; i++) {
      files.add(file(String.format("z%03d", i), JANUARY - 5, 1_000, i, null));
    }

    assertThat(CompactionPlanner.plan(files, 0, W_IN_FEBRUARY, TARGET, 2)).hasSize(2);
    List<Group> all = CompactionPlanner.plan(files, 0, W_IN_FEBRUARY, TARGET, 12);
    // the 65th file of the big month is alone in its group, so it waits
    assertThat(all).hasSize(4);
    assertThat(all.stream().mapToInt(g -> g.files().size()).max().orElseThrow())
        .isEqualTo(CompactionPlanner.MAX_FILES_PER_GROUP);
  }
}
