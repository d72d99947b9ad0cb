package org.meterstore.testing.workload;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.Period;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.meterstore.api.calendar.MeteringCalendar;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.commodity.Unit;
import org.meterstore.api.reading.Quality;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.table.ExtraColumn;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.api.table.TablePolicy;
import org.meterstore.testing.workload.History.Check;
import org.meterstore.testing.workload.History.Deliver;
import org.meterstore.testing.workload.History.Event;
import org.meterstore.testing.workload.History.ForeignCommit;
import org.meterstore.testing.workload.History.Kind;
import org.meterstore.testing.workload.History.Maintain;
import org.meterstore.testing.workload.History.StaleHotWrite;
import org.meterstore.testing.workload.History.Tag;

/**
 * Generates a {@link History} from a seed. Each history covers three or four balancing days around
 * one of the calendar's hard places — the spring or autumn DST day, a month boundary (where every
 * meter gets a second balancing-month scope, and half of them a second network operator), or an
 * ordinary week — in 2026 or 2027 (so the simulated clock lies behind or ahead of the wall clock
 * Iceberg stamps its commits with). Two or three meters, electricity (15 minutes) and gas (hourly,
 * gas days), under two or three tenants; the same market location may appear under two tenants.
 *
 * <p>Corrections arrive one to six days after their original, so many arrive after their window was
 * archived and many after its partition was reclaimed; a third of the corrected readings get a
 * second correction whose version lies between the original and the first correction, delivered
 * after it (it ends {@code SHADOWED}). The policy is small: one-day windows, a settlement lag of
 * six hours to a day, a reader grace of one to six hours, snapshot retention of zero days keeping
 * two.
 */
public final class HistoryGenerator {
  private static final DateTimeFormatter VERSION =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(ZoneOffset.UTC);
  private static final String[] OPERATORS = {"9904292000003", "9900357000009"};
  private static final String[] TENANTS = {"nord", "sued", "west"};
  private static final String[] ANCHORS = {
    "2026-03-29", "2026-10-25", "2026-03-31", "2026-10-31", "2026-06-10",
    "2027-03-28", "2027-10-31", "2027-01-31", "2027-04-30", "2027-07-14"
  };

  private final Random random;
  private final long seed;
  private final List<Event> events = new ArrayList<>();

  private HistoryGenerator(long seed) {
    this.seed = seed;
    this.random = new Random(seed);
  }

  /** The history of seed {@code seed}: the same seed gives the same history. */
  public static History generate(long seed) {
    return new HistoryGenerator(seed).build();
  }

  private History build() {
    LocalDate anchor = LocalDate.parse(ANCHORS[random.nextInt(ANCHORS.length)]);
    LocalDate firstDay = anchor.minusDays(random.nextInt(3));
    int days = 3 + random.nextInt(2);
    TablePolicy policy =
        TablePolicy.DEFAULTS
            .withPartitionHeadroom(Duration.ofDays(2))
            .withSettlementLag(Duration.ofHours(6L * (1 + random.nextInt(4))))
            .withReaderGrace(Duration.ofHours(1 + random.nextInt(6)))
            .withSnapshotRetention(Period.ZERO, 2);
    TableDefinition table =
        TableDefinition.interval("h" + Long.toUnsignedString(seed, 36))
            .withExtraColumns(List.of(ExtraColumn.identity("tenant")))
            .withPolicy(policy);
    int meters = 2 + random.nextInt(2);
    Map<Instant, List<Reading>> corrections = new TreeMap<>();
    int tenantOffset = random.nextInt(TENANTS.length);
    for (int m = 0; m < meters; m++) {
      meter(m, TENANTS[(m + tenantOffset) % TENANTS.length], firstDay, days, corrections);
    }
    corrections.forEach((at, batch) -> events.add(new Deliver(at, Kind.CORRECTION, batch)));
    Instant start = MeteringCalendar.dayStart(firstDay, Commodity.STROM);
    Instant end = lastDelivery().plus(Duration.ofDays(2));
    housekeeping(start, end);
    events.sort(Comparator.comparing(Event::at));
    events.add(new Check(events.get(events.size() - 1).at().plusSeconds(60), true));
    return new History(seed, table, firstDay, days, distinctInstants(events));
  }

  /**
   * Moves events that share an instant one second apart, in order: every event, and so every
   * snapshot it makes, has its own instant on the simulated clock.
   */
  private static List<Event> distinctInstants(List<Event> sorted) {
    List<Event> out = new ArrayList<>(sorted.size());
    Instant previous = Instant.MIN;
    for (Event e : sorted) {
      Instant at = e.at().isAfter(previous) ? e.at() : previous.plusSeconds(1);
      out.add(at.equals(e.at()) ? e : at(e, at));
      previous = at;
    }
    return out;
  }

  private static Event at(Event e, Instant at) {
    if (e instanceof Deliver d) {
      return new Deliver(at, d.kind(), d.readings());
    } else if (e instanceof Maintain m) {
      return new Maintain(at, m.maxWindows(), m.expire());
    } else if (e instanceof ForeignCommit f) {
      return new ForeignCommit(at, f.tie());
    } else if (e instanceof Tag t) {
      return new Tag(at, t.name());
    } else if (e instanceof StaleHotWrite w) {
      return new StaleHotWrite(at, w.readings());
    }
    Check c = (Check) e;
    return new Check(at, c.full());
  }

  /**
   * The deliveries of meter {@code index} under {@code tenant} (each meter has its own tenant, so
   * the third meter may reuse the first one's market location as another reading).
   */
  private void meter(
      int index,
      String tenant,
      LocalDate firstDay,
      int days,
      Map<Instant, List<Reading>> corrections) {
    boolean gas = random.nextInt(3) == 0;
    String malo = Workload.malo(index == 2 && random.nextBoolean() ? 0 : index);
    boolean switchesOperator = random.nextBoolean();
    for (int d = 0; d < days; d++) {
      LocalDate day = firstDay.plusDays(d);
      Commodity commodity = gas ? Commodity.GAS : Commodity.STROM;
      String operator =
          OPERATORS[switchesOperator && day.getMonth() != firstDay.getMonth() ? 1 : 0];
      Instant delivered =
          MeteringCalendar.dayEnd(day, commodity).plusSeconds(60L * (30 + random.nextInt(300)));
      List<Reading> original = new ArrayList<>();
      List<Reading> missing = new ArrayList<>();
      for (Reading r : day(malo, tenant, commodity, day, operator, delivered)) {
        (random.nextInt(33) == 0 ? missing : original).add(r);
        if (random.nextInt(25) == 0) {
          correct(r, delivered, corrections);
        }
      }
      events.add(new Deliver(delivered, Kind.ORIGINAL, original));
      if (random.nextInt(8) == 0) {
        Instant again = delivered.plusSeconds(3600L * random.nextInt(96));
        events.add(new Deliver(again.plusSeconds(1), Kind.REDELIVERY, original));
      }
      if (!missing.isEmpty() && random.nextBoolean()) {
        Instant fill = delivered.plusSeconds(3600L * (12 + random.nextInt(72)));
        events.add(new Deliver(fill, Kind.FILL, missing));
      }
    }
  }

  private void correct(Reading r, Instant delivered, Map<Instant, List<Reading>> corrections) {
    long afterHours = 24L + random.nextInt(24 * 4);
    Instant first = delivered.plusSeconds(3600 * afterHours);
    Instant arrival = first.truncatedTo(java.time.temporal.ChronoUnit.DAYS).plusSeconds(7 * 3600);
    corrections.computeIfAbsent(arrival, k -> new ArrayList<>()).add(corrected(r, first));
    if (random.nextInt(3) == 0) {
      // a correction of an older version, delivered a day after the newer one: SHADOWED
      Instant older = delivered.plus(Duration.between(delivered, first).dividedBy(2));
      corrections
          .computeIfAbsent(arrival.plusSeconds(86_400), k -> new ArrayList<>())
          .add(corrected(r, older));
    }
  }

  private Reading corrected(Reading r, Instant version) {
    return r.toBuilder()
        .version(VERSION.format(version))
        .value(value(r.commodity()))
        .quality(Quality.CORRECTED)
        .build();
  }

  private List<Reading> day(
      String malo,
      String tenant,
      Commodity commodity,
      LocalDate day,
      String operator,
      Instant delivered) {
    Resolution resolution = commodity == Commodity.GAS ? Resolution.PT1H : Resolution.PT15M;
    long count = MeteringCalendar.expectedIntervals(day, resolution, commodity);
    Instant start = MeteringCalendar.dayStart(day, commodity);
    long step = resolution.fixedLength().orElseThrow().getSeconds();
    List<Reading> batch = new ArrayList<>((int) count);
    for (int i = 0; i < count; i++) {
      batch.add(
          Reading.builder()
              .malo(malo)
              .obis(commodity == Commodity.GAS ? "7-20:99.33.17" : "1-0:1.8.0")
              .commodity(commodity)
              .unit(Unit.KWH)
              .interval(start.plusSeconds(i * step), resolution)
              .value(value(commodity))
              .quality(Quality.MEASURED)
              .operator(operator)
              .version(VERSION.format(delivered))
              .sourceKind("MSCONS")
              .extra("tenant", tenant)
              .build());
    }
    return batch;
  }

  private BigDecimal value(Commodity commodity) {
    double max = commodity == Commodity.GAS ? 40.0 : 2.5;
    return BigDecimal.valueOf(random.nextDouble() * max)
        .setScale(1 + random.nextInt(6), RoundingMode.HALF_UP);
  }

  private Instant lastDelivery() {
    return events.stream().map(Event::at).max(Comparator.naturalOrder()).orElseThrow();
  }

  /**
   * Maintenance once a day at a random hour, sometimes with expiry, and on a third of the days a
   * second cycle within the reader grace of the first; now and then a tag, a foreign commit, a
   * stale hot writer's write, and light checks.
   */
  private void housekeeping(Instant start, Instant end) {
    int tags = 0;
    for (Instant t = start.plusSeconds(3600 * 6); t.isBefore(end); t = t.plusSeconds(24 * 3600)) {
      Instant at = t.plusSeconds(60L * random.nextInt(1200));
      events.add(new Maintain(at, 1 + random.nextInt(3), random.nextInt(3) == 0));
      if (random.nextInt(3) == 0) {
        // within every reader grace of the cycle before: nothing it archived may be dropped yet
        events.add(new Maintain(at.plusSeconds(60L * (10 + random.nextInt(40))), 3, false));
      }
      Instant after = at.plusSeconds(30);
      if (random.nextInt(3) == 0) {
        events.add(staleWrite(after.plusSeconds(10)));
      }
      switch (random.nextInt(6)) {
        case 0 -> events.add(new Tag(after, "settle-" + tags++));
        case 1 -> events.add(new ForeignCommit(after, random.nextBoolean()));
        case 2 -> events.add(new Check(after, false));
        case 3 -> events.add(new Check(after, random.nextInt(3) == 0));
        default -> {
          // nothing else this day
        }
      }
    }
  }

  /**
   * A stale hot writer writes a new reading half a day to three days before {@code at} (in a window
   * still hot, being archived, or reclaimed): one that no delivery carries (another OBIS code), so
   * it is refused exactly when W moved past it.
   */
  private StaleHotWrite staleWrite(Instant at) {
    Instant from =
        at.minus(Duration.ofHours(12L + random.nextInt(60)))
            .truncatedTo(java.time.temporal.ChronoUnit.HOURS);
    Reading r =
        Reading.builder()
            .malo(Workload.malo(7))
            .obis("1-0:2.8.0")
            .commodity(Commodity.STROM)
            .unit(Unit.KWH)
            .interval(from, Resolution.PT15M)
            .value(value(Commodity.STROM))
            .quality(Quality.MEASURED)
            .operator(OPERATORS[0])
            .version(VERSION.format(at))
            .extra("tenant", TENANTS[0])
            .build();
    return new StaleHotWrite(at, List.of(r));
  }

  @Override
  public String toString() {
    return "HistoryGenerator[" + seed + "]";
  }
}
