package org.meterstore.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.OpenTelemetry;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import org.meterstore.HotWriter;
import org.meterstore.MeterCatalog;
import org.meterstore.Tiers;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.reading.Tier;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.ColdStore;
import org.meterstore.cold.commit.ArchivalCommit;
import org.meterstore.cold.snapshot.SnapshotInfo;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.hot.HotStore;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.maintenance.MaintenanceOutcome;
import org.meterstore.maintenance.outcome.TableOutcome;
import org.meterstore.testing.workload.History;
import org.meterstore.testing.workload.History.Check;
import org.meterstore.testing.workload.History.Deliver;
import org.meterstore.testing.workload.History.Event;
import org.meterstore.testing.workload.History.ForeignCommit;
import org.meterstore.testing.workload.History.Maintain;
import org.meterstore.testing.workload.History.StaleHotWrite;
import org.meterstore.testing.workload.History.Tag;
import org.meterstore.testing.workload.ReferenceModel;

/**
 * Plays one {@link History} against a real store through the façade and, beside it, against the
 * {@link ReferenceModel}; after every event it checks what that event promises (outcomes, tiers, W,
 * healthy maintenance, the reader grace, the hot floor) and at each {@link Check} it compares the
 * queries with the model ({@link ModelQueries}).
 */
final class HistoryReplay implements AutoCloseable {
  private final History history;
  private final TableDefinition table;
  private final HotStore hot;
  private final MeterCatalog catalog;
  private final ColdTable cold;
  private final ReferenceModel model;
  private final AtomicReference<Instant> clock;
  private final HotWriter staleWriter;
  private final Random random;

  /** Every snapshot seen, with the simulated instant of the event that made it. */
  private final Map<Long, Instant> snapshotsSeenAt = new LinkedHashMap<>();

  private final Map<String, Long> tags = new LinkedHashMap<>();

  /** Every archival commit seen (expiry removes them from the metadata): window start → commit. */
  private final Map<Instant, ArchivalCommit> archived = new LinkedHashMap<>();

  private Event current;
  private int ties;
  private String lastCycle = "none";
  private final Map<String, Long> timings = new java.util.TreeMap<>();

  /** How many foreign versions tied with a stored one. */
  int ties() {
    return ties;
  }

  /** Nanoseconds spent per event type, for tuning the suite's run time. */
  Map<String, Long> timings() {
    return timings;
  }

  HistoryReplay(History history, HotStore hot, ColdStore coldStore) {
    this.history = history;
    this.table = history.table();
    this.hot = hot;
    Instant start = history.events().get(0).at().minus(Duration.ofDays(1));
    this.clock = new AtomicReference<>(start);
    this.catalog =
        MeterCatalog.of(hot, coldStore, List.of(table), OpenTelemetry.noop(), clock::get);
    catalog.createTables(start);
    this.cold = Tiers.coldTable(catalog, table.name());
    this.model = new ReferenceModel(table);
    this.staleWriter = catalog.table(table.name()).hotWriter();
    this.random = new Random(history.seed());
    observeSnapshots(start);
  }

  /** Plays every event; an assertion error names the seed and the event. */
  void play() throws Exception {
    for (Event e : history.events()) {
      current = e;
      clock.set(e.at());
      long started = System.nanoTime();
      try {
        dispatch(e);
        timings.merge(e.getClass().getSimpleName(), System.nanoTime() - started, Long::sum);
      } catch (AssertionError | RuntimeException failure) {
        throw new AssertionError(
            "history seed "
                + history.seed()
                + " failed at "
                + e
                + " (replay: -Dmeterstore.history.seed="
                + history.seed()
                + "): "
                + failure.getMessage(),
            failure);
      }
    }
  }

  private void dispatch(Event e) throws Exception {
    if (e instanceof Deliver d) {
      deliver(d);
    } else if (e instanceof Maintain m) {
      maintain(m);
    } else if (e instanceof ForeignCommit f) {
      foreignCommit(f);
    } else if (e instanceof Tag t) {
      tag(t);
    } else if (e instanceof StaleHotWrite s) {
      staleWrite(s);
    } else if (e instanceof Check c) {
      check(c);
    } else {
      throw new IllegalStateException("unknown event " + e);
    }
  }

  private void deliver(Deliver d) {
    Instant w = cold.watermark();
    List<WriteOutcome> expected = model.write(d.readings(), d.at());
    WriteResult result = catalog.table(table.name()).append(d.readings(), d.at());
    assertThat(result.outcomes()).as("outcomes").isEqualTo(expected);
    List<Tier> tiers =
        d.readings().stream().map(r -> r.from().isBefore(w) ? Tier.COLD : Tier.HOT).toList();
    assertThat(result.tiers()).as("tiers routed by W " + w).isEqualTo(tiers);
    if (result.tiers().contains(Tier.COLD)) {
      observeSnapshots(d.at());
    }
  }

  private void maintain(Maintain m) {
    Instant before = cold.watermark();
    List<PartitionInfo> partitions = hot.partitions().list(table);
    observeCommits();
    MaintenanceOutcome outcome =
        catalog
            .maintenance()
            .maxWindowsPerCycle(m.maxWindows())
            .expireSnapshots(m.expire())
            .runOnce(m.at());
    TableOutcome row = outcome.row(table.name()).orElseThrow();
    lastCycle = m.at() + " " + row;
    assertThat(outcome.failures()).as("failures").isEmpty();
    assertThat(row.status()).isIn(TableOutcome.Status.ARCHIVED, TableOutcome.Status.NOTHING_DUE);
    assertThat(row.invariantViolations().orElse(0)).as("invariant_violations").isZero();
    Instant w = cold.watermark();
    assertThat(w).as("W never moves back").isAfterOrEqualTo(before);
    assertThat(hot.partitions().countRowsBelow(table, w)).as("hot rows below W").isZero();
    observeSnapshots(m.at());
    observeCommits();
    assertGraceKept(partitions, m.at());
  }

  /** A partition that was there before the cycle and is gone now was archived a grace ago. */
  private void assertGraceKept(List<PartitionInfo> before, Instant now) {
    List<String> after = hot.partitions().list(table).stream().map(PartitionInfo::name).toList();
    Duration grace = table.policy().readerGrace();
    for (PartitionInfo p : before) {
      if (after.contains(p.name())) {
        continue;
      }
      Instant archivedAt =
          archived.values().stream()
              .filter(c -> !c.to().isBefore(p.upperBound()) && !c.from().isAfter(p.lowerBound()))
              .map(c -> c.archivedAt())
              .findFirst()
              .orElseThrow(() -> new AssertionError(p.name() + " dropped but never archived"));
      assertThat(now)
          .as(p.name() + " reclaimed; archived at " + archivedAt + ", grace " + grace)
          .isAfterOrEqualTo(archivedAt.plus(grace));
    }
  }

  private void foreignCommit(ForeignCommit f) {
    Instant w = cold.watermark();
    boolean stamped = w.isAfter(Instant.EPOCH);
    Optional<StoredReading> tie = f.tie() ? untouchedColdWinner(w) : Optional.empty();
    if (tie.isPresent()) {
      StoredReading original = tie.get();
      Reading changed =
          original.reading().toBuilder()
              .value(original.reading().value().add(new BigDecimal("1.000001")))
              .build();
      StoredReading copy =
          new StoredReading(changed, original.version(), f.at(), original.balancingDay());
      ForeignWriter.append(cold.icebergTable(), table, List.of(copy));
      model.foreign(copy);
      ties++;
    } else {
      cold.icebergTable().newAppend().commit();
    }
    boolean restamped = catalog.table(table.name()).reassertWatermark(f.at());
    assertThat(cold.watermark()).as("W after a foreign commit and the re-stamp").isEqualTo(w);
    if (stamped) {
      assertThat(restamped).as("re-stamped").isTrue();
    }
    observeSnapshots(f.at());
  }

  /** A current reading below W whose merge key no later event writes again. */
  private Optional<StoredReading> untouchedColdWinner(Instant w) {
    java.util.Set<List<Object>> later = new java.util.HashSet<>();
    boolean after = false;
    for (Event e : history.events()) {
      after |= e == current;
      if (after && e instanceof Deliver d) {
        d.readings().forEach(r -> later.add(key(r)));
      }
    }
    List<StoredReading> candidates =
        model.current().stream()
            .filter(r -> r.reading().from().isBefore(w) && !later.contains(key(r.reading())))
            .toList();
    return candidates.isEmpty()
        ? Optional.empty()
        : Optional.of(candidates.get(random.nextInt(candidates.size())));
  }

  private static List<Object> key(Reading r) {
    return List.of(r.maloId(), r.obisCode(), r.from(), r.extra());
  }

  private void tag(Tag t) {
    if (cold.snapshots().isEmpty()) {
      return;
    }
    tags.put(t.name(), cold.tagSnapshot(t.name()));
  }

  private void staleWrite(StaleHotWrite s) {
    Instant w = cold.watermark();
    if (s.readings().stream().anyMatch(r -> r.from().isBefore(w))) {
      assertThatThrownBy(() -> staleWriter.write(s.readings(), s.at()))
          .as("a stale hot writer below W " + w + " (the hot floor)")
          .isInstanceOfSatisfying(
              MeterStoreException.class,
              e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT));
      return;
    }
    List<WriteOutcome> expected = model.write(s.readings(), s.at());
    WriteResult result = staleWriter.write(s.readings(), s.at());
    assertThat(result.outcomes()).isEqualTo(expected);
  }

  private void check(Check c) throws Exception {
    try (ModelQueries q = new ModelQueries(catalog, table, model)) {
      Instant w = cold.watermark();
      q.expectTotals();
      if (!c.full()) {
        q.verify("totals at W " + w);
        return;
      }
      q.expectModes(w, random, history.events().get(0).at(), c.at());
      q.expectSnapshots(liveSnapshots(), snapshotsSeenAt, tags, random);
      q.verify("every read mode at W " + w + "; snapshots seen " + snapshotsSeenAt);
      q.assertHealthy(c.at());
      q.assertRows();
      q.assertGrouped();
      q.assertRange(w, random);
      if (current == history.events().get(history.events().size() - 1)) {
        assertNothingStranded(w);
      }
    }
  }

  /** At the end: no partition below W is left once its grace is over. */
  private void assertNothingStranded(Instant w) {
    Instant now = clock.get();
    List<PartitionInfo> partitions = hot.partitions().list(table);
    for (PartitionInfo p : partitions) {
      if (!p.upperBound().isAfter(w)) {
        Optional<Instant> archivedAt =
            archived.values().stream()
                .filter(x -> !x.to().isBefore(p.upperBound()) && !x.from().isAfter(p.lowerBound()))
                .map(x -> x.archivedAt())
                .findFirst();
        String what =
            p
                + " below W "
                + w
                + " archived at "
                + archivedAt
                + ", grace "
                + table.policy().readerGrace()
                + ", last cycle "
                + lastCycle
                + "; partitions "
                + partitions;
        assertThat(archivedAt.filter(at -> now.isBefore(at.plus(table.policy().readerGrace()))))
            .as("a stranded partition: " + what)
            .isPresent();
      }
    }
  }

  private Map<Long, SnapshotInfo> liveSnapshots() {
    Map<Long, SnapshotInfo> live = new LinkedHashMap<>();
    for (SnapshotInfo s : cold.snapshots()) {
      live.put(s.snapshotId(), s);
    }
    return live;
  }

  private void observeCommits() {
    cold.archivalCommits().forEach(c -> archived.putIfAbsent(c.from(), c));
  }

  private void observeSnapshots(Instant at) {
    List<Long> fresh = new ArrayList<>();
    for (SnapshotInfo s : cold.snapshots()) {
      if (!snapshotsSeenAt.containsKey(s.snapshotId())) {
        fresh.add(s.snapshotId());
      }
    }
    fresh.forEach(id -> snapshotsSeenAt.put(id, at));
  }

  @Override
  public void close() {
    catalog.close();
  }
}
