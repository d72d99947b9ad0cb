package org.meterstore.bench;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.function.Function;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.calendar.MeteringCalendar;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.commodity.Unit;
import org.meterstore.api.id.MaloId;
import org.meterstore.api.reading.Quality;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;

/**
 * A seeded, streaming data set: {@code meters} market locations over {@code days} balancing days
 * from {@code firstDay}. Electricity meters deliver 15-minute values per calendar day; every {@code
 * gasEvery}-th meter measures gas as hourly values per gas day (06:00–06:00), as German gas
 * metering does. Days follow the Europe/Berlin calendar, so a range over the last Sunday of March
 * or October holds a 92- or 100-quarter-hour day. About {@code correctionRate} of the readings are
 * corrected later at a higher operator version, and about {@code redeliveryRate} of the meter-days
 * are delivered twice unchanged.
 *
 * <p>Each meter-day draws from its own random stream derived from (seed, meter, day), so any slice
 * of the data set can be generated alone, in any order, with the same values: the tiers and every
 * baseline are loaded from the same rows without holding them in memory.
 *
 * @param meters market locations, at least 1
 * @param firstDay the first balancing day
 * @param days balancing days, at least 1
 * @param gasEvery every n-th meter measures gas; 0 for none
 * @param correctionRate share of readings corrected at a higher version, 0..1
 * @param redeliveryRate share of meter-days delivered twice, 0..1
 * @param seed the seed
 */
public record Dataset(
    int meters,
    LocalDate firstDay,
    int days,
    int gasEvery,
    double correctionRate,
    double redeliveryRate,
    long seed) {

  /** The network operator (BDEW code) whose versions every reading carries. */
  public static final String OPERATOR = "9904292000003";

  private static final DateTimeFormatter VERSION =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(ZoneOffset.UTC);

  /** Checks the ranges. */
  public Dataset {
    if (meters < 1 || days < 1 || gasEvery < 0 || firstDay == null) {
      throw new IllegalArgumentException("Invalid dataset: meters and days >= 1, gasEvery >= 0");
    }
    if (correctionRate < 0 || correctionRate > 1 || redeliveryRate < 0 || redeliveryRate > 1) {
      throw new IllegalArgumentException("Invalid dataset: rates are between 0 and 1");
    }
  }

  /** The day after the last balancing day. */
  public LocalDate endDay() {
    return firstDay.plusDays(days);
  }

  /** The commodity of meter {@code meter} (0-based). */
  public Commodity commodity(int meter) {
    return gasEvery > 0 && meter % gasEvery == gasEvery - 1 ? Commodity.GAS : Commodity.STROM;
  }

  /** The market location id of meter {@code meter}: an 11-digit id with a valid check digit. */
  public static String malo(int meter) {
    String prefix = String.format(java.util.Locale.ROOT, "5%09d", meter);
    for (int check = 0; check <= 9; check++) {
      try {
        return MaloId.parse(prefix + check).value();
      } catch (MeterStoreException wrongDigit) {
        // exactly one digit fits
      }
    }
    throw new IllegalStateException("no check digit fits " + prefix);
  }

  /**
   * One meter's delivery for one balancing day.
   *
   * @param originals the first delivery, in interval order
   * @param corrections later versions of some of those readings (possibly none)
   * @param redelivered whether the original delivery arrives a second time unchanged
   */
  public record MeterDay(List<Reading> originals, List<Reading> corrections, boolean redelivered) {}

  /** The delivery of meter {@code meter} (0-based) for balancing day {@code day}. */
  public MeterDay meterDay(int meter, LocalDate day) {
    Random random = new Random(mix(seed, meter, day.toEpochDay()));
    Commodity commodity = commodity(meter);
    Resolution resolution = commodity == Commodity.GAS ? Resolution.PT1H : Resolution.PT15M;
    long count = MeteringCalendar.expectedIntervals(day, resolution, commodity);
    Instant start = MeteringCalendar.dayStart(day, commodity);
    Instant delivered = MeteringCalendar.dayEnd(day, commodity).plusSeconds(3600);
    String version = VERSION.format(delivered);
    String malo = malo(meter);
    String obis = commodity == Commodity.GAS ? "7-20:99.33.17" : "1-0:1.8.0";
    long step = resolution.fixedLength().orElseThrow().getSeconds();
    List<Reading> originals = new ArrayList<>((int) count);
    List<Reading> corrections = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Reading reading =
          Reading.builder()
              .malo(malo)
              .obis(obis)
              .commodity(commodity)
              .unit(Unit.KWH)
              .interval(start.plusSeconds(i * step), resolution)
              .value(value(random, commodity))
              .quality(Quality.MEASURED)
              .operator(OPERATOR)
              .version(version)
              .sourceKind("MSCONS")
              .build();
      originals.add(reading);
      if (random.nextDouble() < correctionRate) {
        Instant correctedAt = delivered.plusSeconds(86_400L * (1 + random.nextInt(20)));
        corrections.add(
            reading.toBuilder()
                .version(VERSION.format(correctedAt))
                .value(value(random, commodity))
                .quality(Quality.CORRECTED)
                .build());
      }
    }
    boolean redelivered = random.nextDouble() < redeliveryRate;
    return new MeterDay(List.copyOf(originals), List.copyOf(corrections), redelivered);
  }

  /**
   * Late corrections of meter {@code meter}'s balancing day {@code day}, beyond {@link #meterDay}'s
   * own: about {@code rate} of its original readings restated with a new value and quality {@code
   * CORRECTED}, each at the version of one of {@code deliveries} (drawn per reading). Later than
   * every version the data set itself makes when the deliveries are more than 21 days after the
   * day. Drawn from a stream of its own seeded by (seed, meter, day), so the data set's values are
   * unchanged; the same arguments give the same readings.
   */
  public List<Reading> lateCorrections(
      int meter, LocalDate day, double rate, List<Instant> deliveries) {
    Random random = new Random(mix(~seed, meter, day.toEpochDay()));
    Commodity commodity = commodity(meter);
    List<Reading> late = new ArrayList<>();
    for (Reading r : meterDay(meter, day).originals()) {
      if (random.nextDouble() < rate) {
        Instant delivered = deliveries.get(random.nextInt(deliveries.size()));
        late.add(
            r.toBuilder()
                .version(VERSION.format(delivered))
                .value(value(random, commodity))
                .quality(Quality.CORRECTED)
                .build());
      }
    }
    return late;
  }

  /**
   * Every stored reading (originals and corrections, each once) whose {@code from} lies in {@code
   * [fromInclusive, toExclusive)}, as {@link StoredRow} arrays of {@code table} accepted at {@code
   * now}; generated lazily, day by day, meter by meter. Each call starts afresh (re-iterable).
   */
  public Iterable<Object[]> rows(
      TableDefinition table, Instant now, Instant fromInclusive, Instant toExclusive) {
    return () -> new RowIterator(table, now, fromInclusive, toExclusive, Dataset::everyVersion);
  }

  /**
   * The first delivery of every reading whose {@code from} lies in {@code [fromInclusive,
   * toExclusive)} — no corrections, no redeliveries — each carrying one version per UTC month of
   * its {@code from} (the month's end, as if the month had been migrated in one delivery), as
   * {@link StoredRow} arrays of {@code table} accepted at {@code now}. The cold tier partitions by
   * the UTC month of {@code from}, so each of its files then holds one version and files of
   * different versions are disjoint in {@code from}: the shape merge elision recognises. The
   * per-day versions of {@link #rows} would put some 30 versions into each month's file. Lazy and
   * re-iterable like {@link #rows}; same values as the originals there.
   */
  public Iterable<Object[]> singleVersionRows(
      TableDefinition table, Instant now, Instant fromInclusive, Instant toExclusive) {
    return () -> new RowIterator(table, now, fromInclusive, toExclusive, Dataset::monthVersioned);
  }

  private static List<Reading> everyVersion(MeterDay md) {
    List<Reading> all = new ArrayList<>(md.originals());
    all.addAll(md.corrections());
    return all;
  }

  private static List<Reading> monthVersioned(MeterDay md) {
    return md.originals().stream()
        .map(r -> r.toBuilder().version(VERSION.format(nextUtcMonth(r.from()))).build())
        .toList();
  }

  /** The first instant of the UTC month after the one holding {@code t}. */
  static Instant nextUtcMonth(Instant t) {
    ZonedDateTime utc = t.atZone(ZoneOffset.UTC);
    return utc.toLocalDate()
        .withDayOfMonth(1)
        .plusMonths(1)
        .atStartOfDay(ZoneOffset.UTC)
        .toInstant();
  }

  /** The number of rows {@link #rows} yields for the range (generates them). */
  public long count(TableDefinition table, Instant now, Instant fromInclusive, Instant to) {
    long n = 0;
    for (Object[] ignored : rows(table, now, fromInclusive, to)) {
      n++;
    }
    return n;
  }

  private final class RowIterator implements Iterator<Object[]> {
    private final TableDefinition table;
    private final Instant now;
    private final Instant from;
    private final Instant to;
    private final Function<MeterDay, List<Reading>> versions;
    private LocalDate day;
    private final LocalDate lastDay;
    private int meter;
    private Iterator<Reading> current = List.<Reading>of().iterator();
    private Object[] next;

    RowIterator(
        TableDefinition table,
        Instant now,
        Instant from,
        Instant to,
        Function<MeterDay, List<Reading>> versions) {
      this.table = table;
      this.now = now;
      this.from = from;
      this.to = to;
      this.versions = versions;
      // a gas day starts at 06:00 local, a calendar day at 00:00: look one day either side
      LocalDate first = MeteringCalendar.localDay(from).minusDays(1);
      this.day = first.isBefore(firstDay) ? firstDay : first;
      LocalDate last = MeteringCalendar.localDay(to).plusDays(1);
      this.lastDay = last.isAfter(endDay()) ? endDay() : last;
      advance();
    }

    private void advance() {
      next = null;
      while (next == null) {
        while (!current.hasNext()) {
          if (!day.isBefore(lastDay)) {
            return;
          }
          current = versions.apply(meterDay(meter, day)).iterator();
          if (++meter == meters) {
            meter = 0;
            day = day.plusDays(1);
          }
        }
        Reading r = current.next();
        if (!r.from().isBefore(from) && r.from().isBefore(to)) {
          next = StoredRow.of(table, StoredReading.accept(r, now));
        }
      }
    }

    @Override
    public boolean hasNext() {
      return next != null;
    }

    @Override
    public Object[] next() {
      if (next == null) {
        throw new NoSuchElementException();
      }
      Object[] row = next;
      advance();
      return row;
    }
  }

  private static BigDecimal value(Random random, Commodity commodity) {
    double max = commodity == Commodity.GAS ? 40.0 : 2.5;
    return BigDecimal.valueOf(random.nextDouble() * max).setScale(3, RoundingMode.HALF_UP);
  }

  /** A well-spread 64-bit seed for one meter-day (SplitMix64 finaliser over the inputs). */
  static long mix(long seed, long meter, long epochDay) {
    long z = seed * 0x9E3779B97F4A7C15L + meter * 0xBF58476D1CE4E5B9L + epochDay;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
