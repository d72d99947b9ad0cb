package org.meterstore.cli.demo;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.calendar.MeteringCalendar;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.commodity.Unit;
import org.meterstore.api.id.MaloId;
import org.meterstore.api.id.MarketPartnerId;
import org.meterstore.api.reading.Quality;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.ReadingBuilder;

/**
 * A month of plausible metering data for the demo, generated day by day so memory stays at one
 * day's deliveries. Four in five market locations measure electricity ({@value #STROM}: 15-minute
 * kWh on calendar days, a household load shape with morning and evening peaks); the others measure
 * gas ({@value #GAS}: hourly kWh on gas days, or, for every third gas location, one daily value in
 * m³). Each location delivers each balancing day once, an hour after it ends (one batch, version =
 * the delivery time); about 1 % of batches are redelivered unchanged two hours later, and about 3 %
 * of readings are corrected one to five days later at a higher version with quality {@code
 * CORRECTED}. Everything follows from the seed: the same arguments give the same readings.
 *
 * @param locations market locations, 1 to 100 000
 * @param month the month (Europe/Berlin); October and March contain a DST day
 * @param seed the random seed
 */
public record DemoMonth(int locations, YearMonth month, long seed) {
  /** The table of electricity readings. */
  public static final String STROM = "strom";

  /** The table of gas readings. */
  public static final String GAS = "gas";

  private static final DateTimeFormatter VERSION =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(ZoneOffset.UTC);
  private static final double CORRECTION_RATE = 0.03;
  private static final double REDELIVERY_RATE = 0.01;
  private static final String OPERATOR = operator();

  /** Checks the ranges. */
  public DemoMonth {
    if (locations < 1 || locations > 100_000) {
      throw MeterStoreException.invalid("locations", locations, "1 to 100000");
    }
    if (month == null) {
      throw MeterStoreException.invalid("month", null, "required");
    }
  }

  /** The commodity of location {@code index} (0-based): every fifth measures gas. */
  public static Commodity commodity(int index) {
    return index % 5 == 4 ? Commodity.GAS : Commodity.STROM;
  }

  /** The table location {@code index} delivers to. */
  public static String table(int index) {
    return commodity(index) == Commodity.GAS ? GAS : STROM;
  }

  /** The market location id of location {@code index}: eleven digits with a valid check digit. */
  public static String malo(int index) {
    String prefix = String.format("4%09d", index);
    for (int check = 0; check <= 9; check++) {
      try {
        return MaloId.parse(prefix + check).value();
      } catch (MeterStoreException wrongDigit) {
        // exactly one check digit fits
      }
    }
    throw new IllegalStateException("no check digit fits " + prefix);
  }

  /** The days of the month, first to last. */
  public List<LocalDate> days() {
    List<LocalDate> days = new ArrayList<>();
    for (int d = 1; d <= month.lengthOfMonth(); d++) {
      days.add(month.atDay(d));
    }
    return days;
  }

  /**
   * The deliveries for balancing day {@code day}: per location its original batch, possibly a
   * redelivery, and the corrections of some of its readings, each with its arrival instant. The
   * caller delivers them in arrival order as its simulated clock passes each arrival.
   */
  public List<Delivery> deliveries(LocalDate day) {
    List<Delivery> out = new ArrayList<>();
    for (int loc = 0; loc < locations; loc++) {
      Random random = new Random(seed * 1_000_003L + loc * 7_919L + day.toEpochDay());
      Commodity commodity = commodity(loc);
      Instant arrival = MeteringCalendar.dayEnd(day, commodity).plus(Duration.ofHours(1));
      List<Reading> batch = original(loc, day, arrival, random);
      out.add(new Delivery(table(loc), arrival, Kind.ORIGINAL, batch));
      if (random.nextDouble() < REDELIVERY_RATE) {
        out.add(
            new Delivery(table(loc), arrival.plus(Duration.ofHours(2)), Kind.REDELIVERY, batch));
      }
      List<Reading> corrected = new ArrayList<>();
      Instant correctedAt = arrival.plus(Duration.ofDays(1 + random.nextInt(5)));
      for (Reading r : batch) {
        if (random.nextDouble() < CORRECTION_RATE) {
          corrected.add(correct(r, correctedAt, random));
        }
      }
      if (!corrected.isEmpty()) {
        out.add(new Delivery(table(loc), correctedAt, Kind.CORRECTION, List.copyOf(corrected)));
      }
    }
    return out;
  }

  private List<Reading> original(int loc, LocalDate day, Instant arrival, Random random) {
    Commodity commodity = commodity(loc);
    String malo = malo(loc);
    if (commodity == Commodity.GAS && loc % 15 == 14) {
      Instant start = MeteringCalendar.dayStart(day, commodity);
      Instant end = MeteringCalendar.dayEnd(day, commodity);
      BigDecimal m3 = decimal(4.0 + 6.0 * random.nextDouble());
      return List.of(
          builder(malo, commodity, arrival)
              .obis("7-0:3.0.0")
              .unit(Unit.M3)
              .interval(start, end)
              .resolution(Resolution.P1D)
              .value(m3)
              .build());
    }
    Resolution resolution = commodity == Commodity.GAS ? Resolution.PT1H : Resolution.PT15M;
    long count = MeteringCalendar.expectedIntervals(day, resolution, commodity);
    long step = resolution.fixedLength().orElseThrow().getSeconds();
    Instant start = MeteringCalendar.dayStart(day, commodity);
    double scale = 0.6 + 0.8 * random.nextDouble();
    List<Reading> batch = new ArrayList<>((int) count);
    for (int i = 0; i < count; i++) {
      Instant from = start.plusSeconds(i * step);
      double hour = from.atZone(MeteringCalendar.ZONE).toLocalTime().toSecondOfDay() / 3600.0;
      double value =
          commodity == Commodity.GAS
              ? scale * heating(hour) * (0.9 + 0.2 * random.nextDouble())
              : scale * household(hour) * (0.85 + 0.3 * random.nextDouble());
      batch.add(
          builder(malo, commodity, arrival)
              .obis(commodity == Commodity.GAS ? "7-20:99.33.17" : "1-0:1.8.0")
              .unit(Unit.KWH)
              .interval(from, resolution)
              .value(decimal(value))
              .build());
    }
    return List.copyOf(batch);
  }

  private static ReadingBuilder builder(String malo, Commodity commodity, Instant arrival) {
    return Reading.builder()
        .malo(malo)
        .commodity(commodity)
        .quality(Quality.MEASURED)
        .operator(OPERATOR)
        .version(VERSION.format(arrival))
        .sourceKind("MSCONS");
  }

  /** kWh per quarter hour of a household: a base load, a morning and a larger evening peak. */
  private static double household(double hour) {
    double morning = Math.exp(-Math.pow(hour - 7.5, 2) / 2.0);
    double evening = Math.exp(-Math.pow(hour - 19.0, 2) / 4.0);
    return 0.05 + 0.12 * morning + 0.2 * evening;
  }

  /** kWh per hour of an October gas heating: more at night and in the morning. */
  private static double heating(double hour) {
    double morning = Math.exp(-Math.pow(hour - 6.5, 2) / 3.0);
    return 2.0 + 3.0 * morning + (hour < 6 || hour > 21 ? 1.0 : 0.0);
  }

  private static Reading correct(Reading r, Instant correctedAt, Random random) {
    BigDecimal factor = BigDecimal.valueOf(0.9 + 0.2 * random.nextDouble());
    return r.toBuilder()
        .version(VERSION.format(correctedAt))
        .value(r.value().multiply(factor).setScale(3, RoundingMode.HALF_UP))
        .quality(Quality.CORRECTED)
        .build();
  }

  private static BigDecimal decimal(double value) {
    return BigDecimal.valueOf(value).setScale(3, RoundingMode.HALF_UP);
  }

  /** A valid network operator code (13 digits with check digit) for every generated reading. */
  private static String operator() {
    for (int check = 0; check <= 9; check++) {
      MarketPartnerId id = new MarketPartnerId("990010000000" + check);
      if (id.hasValidCheckDigit()) {
        return id.value();
      }
    }
    throw new IllegalStateException("no check digit fits");
  }

  /** The local time deliveries of a day are due by: the next day, 08:00 Europe/Berlin. */
  public static Instant settledBy(LocalDate day) {
    return day.plusDays(1).atTime(LocalTime.of(8, 0)).atZone(MeteringCalendar.ZONE).toInstant();
  }

  /** What a delivery is. */
  public enum Kind {
    /** The first delivery of a location's day. */
    ORIGINAL,
    /** The same batch again, unchanged: every reading comes back {@code DUPLICATE}. */
    REDELIVERY,
    /** Corrected values at a higher version. */
    CORRECTION
  }

  /**
   * One batch as the application would hand it to MeterStore.
   *
   * @param table the target table ({@value DemoMonth#STROM} or {@value DemoMonth#GAS})
   * @param arrival when it arrives (the simulated clock delivers it once past this instant)
   * @param kind original, redelivery or correction
   * @param readings the readings, in interval order
   */
  public record Delivery(String table, Instant arrival, Kind kind, List<Reading> readings) {}
}
