package org.meterstore;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.meterstore.api.calendar.MeteringCalendar;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.testing.workload.Workload;

/**
 * What the appender of {@link ThreeProcessesIT} writes, day by day, as a pure function of the seed:
 * the first table gets three electricity meters, the second three gas meters. On each balancing day
 * it delivers that day's originals (with their redeliveries) and the corrections that arrive that
 * day: a correction of day {@code x} arrives on day {@code x + 1}, {@code x + 2} or {@code x + 3}
 * (from its version), so some land above W and race archival, others are late corrections below it.
 * The parent rebuilds the same plan to feed its reference model.
 */
final class DeliveryPlan {
  static final LocalDate FIRST_DAY = LocalDate.of(2026, 3, 2);
  private static final DateTimeFormatter VERSION =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(ZoneOffset.UTC);

  /** One append: {@code readings} to {@code table} at {@code now}, on balancing day {@code day}. */
  record Step(LocalDate day, String table, List<Reading> readings, Instant now) {}

  private final List<TableDefinition> tables;
  private final long seed;
  private final int days;

  /** The plan for two tables (electricity, gas) over {@code days} days from {@link #FIRST_DAY}. */
  DeliveryPlan(List<TableDefinition> tables, long seed, int days) {
    if (tables.size() != 2) {
      throw new IllegalArgumentException("Invalid tables: " + tables + " (electricity and gas)");
    }
    this.tables = List.copyOf(tables);
    this.seed = seed;
    this.days = days;
  }

  /** Every append, in the order the appender makes them. */
  List<Step> steps() {
    List<Map<LocalDate, List<List<Reading>>>> perTable = new ArrayList<>();
    for (int t = 0; t < 2; t++) {
      perTable.add(byDay(new Workload(3, FIRST_DAY, days, t, 0.05, 0.1, seed + t)));
    }
    List<Step> steps = new ArrayList<>();
    for (int d = 0; d < days; d++) {
      LocalDate day = FIRST_DAY.plusDays(d);
      Instant now =
          MeteringCalendar.dayStart(day.plusDays(1), Commodity.STROM).plusSeconds(8 * 3600);
      for (int t = 0; t < 2; t++) {
        for (List<Reading> batch : perTable.get(t).getOrDefault(day, List.of())) {
          steps.add(new Step(day, tables.get(t).name(), batch, now));
        }
      }
    }
    return steps;
  }

  /**
   * The maintainer's {@code now} once the appender finished {@code day}: every UTC window before
   * that day's UTC date holds all its original readings, so it may be archived (settlement lag).
   */
  Instant maintainerClock(LocalDate day) {
    return utcStart(day).plus(lag());
  }

  /** W once the maintainer archived what {@link #maintainerClock} of {@code day} made due. */
  static Instant watermarkAfter(LocalDate day) {
    return utcStart(day);
  }

  /** The maintainer's last {@code now} after {@code lastDay}: every window with readings is due. */
  Instant finalClock(LocalDate lastDay) {
    return utcStart(lastDay.plusDays(2)).plus(lag());
  }

  /** W once {@link #finalClock} was archived. */
  static Instant finalWatermark(LocalDate lastDay) {
    return utcStart(lastDay.plusDays(2));
  }

  private Duration lag() {
    return tables.get(0).policy().settlementLag();
  }

  private static Instant utcStart(LocalDate day) {
    return day.atStartOfDay(ZoneOffset.UTC).toInstant();
  }

  /** The workload's deliveries by arrival day: originals as they are, then one correction batch. */
  private Map<LocalDate, List<List<Reading>>> byDay(Workload workload) {
    Map<LocalDate, List<List<Reading>>> out = new TreeMap<>();
    Map<LocalDate, List<Reading>> corrections = new TreeMap<>();
    LocalDate last = FIRST_DAY.plusDays(days - 1L);
    for (Workload.Delivery delivery : workload.deliveries()) {
      if (!delivery.correction()) {
        LocalDate day = delivered(delivery.readings().get(0)).minusDays(1);
        out.computeIfAbsent(day, x -> new ArrayList<>()).add(delivery.readings());
        continue;
      }
      for (Reading r : delivery.readings()) {
        LocalDate of = MeteringCalendar.balancingDay(r.from(), r.commodity());
        LocalDate day = of.plusDays(1 + delivered(r).toEpochDay() % 3);
        corrections.computeIfAbsent(day.isAfter(last) ? last : day, x -> new ArrayList<>()).add(r);
      }
    }
    corrections.forEach(
        (day, batch) -> out.computeIfAbsent(day, x -> new ArrayList<>()).add(batch));
    return out;
  }

  /** The local date the reading's version (its delivery instant, UTC) names. */
  private static LocalDate delivered(Reading r) {
    return MeteringCalendar.localDay(VERSION.parse(r.version().toString(), Instant::from));
  }
}
