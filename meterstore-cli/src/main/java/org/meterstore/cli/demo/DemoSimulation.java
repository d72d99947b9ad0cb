package org.meterstore.cli.demo;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import org.meterstore.MeterCatalog;
import org.meterstore.api.calendar.MeteringCalendar;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.Tier;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.cli.demo.DemoMonth.Delivery;
import org.meterstore.cli.output.Progress;
import org.meterstore.maintenance.MaintenanceOutcome;

/**
 * Plays a {@link DemoMonth} into a catalog on a simulated clock: one step per day at 12:00
 * Europe/Berlin, delivering what has arrived by then (a day's batches the day after, corrections
 * days later; a correction below the watermark goes to the cold tier as a late correction, as
 * {@code append} would route it) and then running one maintenance cycle at that instant, so the
 * settled part of the month moves to Iceberg as it would in production. After the month it keeps
 * stepping until the last correction is in.
 */
public final class DemoSimulation {
  private static final int BATCH_ROWS = 5_000;
  private static final Duration TAIL = Duration.ofDays(6);

  private final MeterCatalog catalog;
  private final DemoMonth month;
  private final Progress progress;
  private final Map<WriteOutcome, Long> outcomes = new EnumMap<>(WriteOutcome.class);
  private final Map<String, List<Reading>> pendingWrites = new HashMap<>();
  private final PriorityQueue<Delivery> corrections =
      new PriorityQueue<>(Comparator.comparing(Delivery::arrival));
  private long lateCorrections;
  private int windowsArchived;
  private long redeliveries;
  private long correctionReadings;
  private Instant now;
  private long writingNanos;
  private long maintainingNanos;

  /** A simulation of {@code month} into {@code catalog}, reporting on {@code progress}. */
  public DemoSimulation(MeterCatalog catalog, DemoMonth month, Progress progress) {
    this.catalog = catalog;
    this.month = month;
    this.progress = progress;
  }

  /** The step instant of {@code day}: 12:00 Europe/Berlin on the following day. */
  public static Instant stepAfter(LocalDate day) {
    return day.plusDays(1).atTime(LocalTime.NOON).atZone(MeteringCalendar.ZONE).toInstant();
  }

  /**
   * Runs the month and the tail, and returns what it did.
   *
   * @return the totals; {@link Result#now()} is the simulated clock at the end
   */
  public Result run() {
    List<LocalDate> days = month.days();
    LocalDate last = days.get(days.size() - 1);
    int step = 0;
    int steps = days.size() + (int) TAIL.toDays();
    for (LocalDate day = days.get(0); step < steps; day = day.plusDays(1), step++) {
      now = stepAfter(day);
      if (!day.isAfter(last)) {
        long started = System.nanoTime();
        deliverDay(day);
        writingNanos += System.nanoTime() - started;
      }
      long started = System.nanoTime();
      deliverCorrections();
      long delivered = System.nanoTime();
      writingNanos += delivered - started;
      MaintenanceOutcome cycle = catalog.maintenance().runOnce(now);
      maintainingNanos += System.nanoTime() - delivered;
      windowsArchived += cycle.windowsArchived();
      progress.update(
          String.format(
              "day %d/%d, %,d readings stored, %d windows archived",
              Math.min(step + 1, days.size()), days.size(), stored(), windowsArchived));
    }
    return new Result(
        now,
        Map.copyOf(outcomes),
        redeliveries,
        correctionReadings,
        lateCorrections,
        windowsArchived,
        Duration.ofNanos(writingNanos),
        Duration.ofNanos(maintainingNanos));
  }

  private void deliverDay(LocalDate day) {
    List<Delivery> redelivered = new ArrayList<>();
    for (Delivery d : month.deliveries(day)) {
      switch (d.kind()) {
        case ORIGINAL -> add(d.table(), d.readings());
        case REDELIVERY -> redelivered.add(d);
        case CORRECTION -> corrections.add(d);
      }
    }
    flush();
    for (Delivery d : redelivered) {
      redeliveries += d.readings().size();
      add(d.table(), d.readings());
    }
    flush();
  }

  private void deliverCorrections() {
    flush();
    while (!corrections.isEmpty() && !corrections.peek().arrival().isAfter(now)) {
      Delivery d = corrections.poll();
      correctionReadings += d.readings().size();
      WriteResult result = catalog.table(d.table()).append(d.readings(), now);
      result.outcomes().forEach(this::count);
      lateCorrections += result.count(Tier.COLD);
    }
  }

  private void add(String table, List<Reading> readings) {
    List<Reading> batch = pendingWrites.computeIfAbsent(table, t -> new ArrayList<>());
    batch.addAll(readings);
    if (batch.size() >= BATCH_ROWS) {
      write(table, batch);
    }
  }

  private void flush() {
    for (Map.Entry<String, List<Reading>> e : pendingWrites.entrySet()) {
      write(e.getKey(), e.getValue());
    }
  }

  private void write(String table, List<Reading> batch) {
    if (batch.isEmpty()) {
      return;
    }
    WriteResult result = catalog.table(table).append(List.copyOf(batch), now);
    result.outcomes().forEach(this::count);
    batch.clear();
  }

  private void count(WriteOutcome outcome) {
    outcomes.merge(outcome, 1L, Long::sum);
  }

  private long stored() {
    return outcomes.entrySet().stream()
        .filter(e -> e.getKey() != WriteOutcome.DUPLICATE)
        .mapToLong(Map.Entry::getValue)
        .sum();
  }

  /**
   * What a simulation did.
   *
   * @param now the simulated clock at the end
   * @param outcomes readings per write outcome, over both tiers
   * @param redeliveries readings delivered a second time unchanged
   * @param corrections corrected readings delivered
   * @param lateCorrections corrections that arrived below the watermark and went to Iceberg
   * @param windowsArchived windows moved to Iceberg by the maintenance cycles
   * @param writing time spent generating and writing readings
   * @param maintaining time spent in maintenance cycles (archival, headroom, invariant checks)
   */
  public record Result(
      Instant now,
      Map<WriteOutcome, Long> outcomes,
      long redeliveries,
      long corrections,
      long lateCorrections,
      int windowsArchived,
      Duration writing,
      Duration maintaining) {

    /** Readings stored (every outcome but {@code DUPLICATE}). */
    public long stored() {
      return outcomes.entrySet().stream()
          .filter(e -> e.getKey() != WriteOutcome.DUPLICATE)
          .mapToLong(Map.Entry::getValue)
          .sum();
    }

    /** Readings with {@code outcome}. */
    public long count(WriteOutcome outcome) {
      return outcomes.getOrDefault(outcome, 0L);
    }
  }
}
