package org.meterstore.testing.workload;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
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
import org.meterstore.api.reading.Quality;
import org.meterstore.api.reading.Reading;

/**
 * Generates deliveries for {@code meters} market locations over {@code days} balancing days from
 * {@code firstDay}: electricity as 15-minute values on calendar days, gas (every {@code
 * gasEvery}-th meter) as hourly values on gas days. Each meter-day is one delivery (one batch); a
 * share of the readings is corrected later at a higher operator version, and a share of the batches
 * is redelivered unchanged. Everything follows from the seed.
 *
 * @param meters number of market locations, at least 1
 * @param firstDay the first balancing day (Europe/Berlin)
 * @param days number of balancing days, at least 1
 * @param gasEvery every n-th meter measures gas (0: none)
 * @param correctionRate share of readings corrected later, 0..1
 * @param redeliveryRate share of day batches delivered twice, 0..1
 * @param seed the random seed
 */
public record Workload(
    int meters,
    LocalDate firstDay,
    int days,
    int gasEvery,
    double correctionRate,
    double redeliveryRate,
    long seed) {

  /** The network operator (BDEW code) whose versions every generated reading carries. */
  public static final String OPERATOR = "9904292000003";

  private static final DateTimeFormatter VERSION_FORMAT =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(ZoneOffset.UTC);

  /** Checks the ranges. */
  public Workload {
    if (meters < 1 || days < 1 || gasEvery < 0 || firstDay == null) {
      throw new IllegalArgumentException("Invalid workload: meters and days >= 1, gasEvery >= 0");
    }
    if (correctionRate < 0 || correctionRate > 1 || redeliveryRate < 0 || redeliveryRate > 1) {
      throw new IllegalArgumentException("Invalid workload: rates are between 0 and 1");
    }
  }

  /** A month of readings for {@code meters} locations with 3 % corrections, 1 % redeliveries. */
  public static Workload month(int meters, LocalDate firstDay, long seed) {
    return new Workload(meters, firstDay, firstDay.lengthOfMonth(), 5, 0.03, 0.01, seed);
  }

  /** The commodity of meter {@code index} (0-based). */
  public Commodity commodity(int index) {
    return gasEvery > 0 && index % gasEvery == gasEvery - 1 ? Commodity.GAS : Commodity.STROM;
  }

  /** The market location id of meter {@code index}: a valid id with its check digit. */
  public static String malo(int index) {
    String prefix = String.format("5%09d", index);
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
   * Every delivery in arrival order: first the original batches (one per meter and day, with
   * redeliveries right after their original), then the correction batches.
   */
  public List<Delivery> deliveries() {
    Random random = new Random(seed);
    List<Delivery> originals = new ArrayList<>();
    List<Reading> corrections = new ArrayList<>();
    for (int d = 0; d < days; d++) {
      LocalDate day = firstDay.plusDays(d);
      for (int m = 0; m < meters; m++) {
        List<Reading> batch = day(m, day, random);
        originals.add(new Delivery(batch, false, false));
        if (random.nextDouble() < redeliveryRate) {
          originals.add(new Delivery(batch, true, false));
        }
        for (Reading r : batch) {
          if (random.nextDouble() < correctionRate) {
            corrections.add(correct(r, random));
          }
        }
      }
    }
    List<Delivery> all = new ArrayList<>(originals);
    for (int i = 0; i < corrections.size(); i += 96) {
      all.add(
          new Delivery(
              List.copyOf(corrections.subList(i, Math.min(corrections.size(), i + 96))),
              false,
              true));
    }
    return all;
  }

  private List<Reading> day(int meter, LocalDate day, Random random) {
    Commodity commodity = commodity(meter);
    Resolution resolution = commodity == Commodity.GAS ? Resolution.PT1H : Resolution.PT15M;
    long count = MeteringCalendar.expectedIntervals(day, resolution, commodity);
    Instant start = MeteringCalendar.dayStart(day, commodity);
    Instant delivered = MeteringCalendar.dayEnd(day, commodity).plusSeconds(3600);
    String version = VERSION_FORMAT.format(delivered);
    String malo = malo(meter);
    String obis = commodity == Commodity.GAS ? "7-20:99.33.17" : "1-0:1.8.0";
    long step = resolution.fixedLength().orElseThrow().getSeconds();
    List<Reading> batch = new ArrayList<>((int) count);
    for (int i = 0; i < count; i++) {
      batch.add(
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
              .build());
    }
    return List.copyOf(batch);
  }

  private static BigDecimal value(Random random, Commodity commodity) {
    double max = commodity == Commodity.GAS ? 40.0 : 2.5;
    return BigDecimal.valueOf(random.nextDouble() * max).setScale(3, RoundingMode.HALF_UP);
  }

  private static Reading correct(Reading r, Random random) {
    Instant correctedAt =
        VERSION_FORMAT
            .parse(r.version().toString(), Instant::from)
            .plusSeconds(86_400L * (1 + random.nextInt(20)));
    return r.toBuilder()
        .version(VERSION_FORMAT.format(correctedAt))
        .value(value(random, r.commodity()))
        .quality(Quality.CORRECTED)
        .build();
  }

  /**
   * One delivery as the application hands it to MeterStore.
   *
   * @param readings the readings of the delivery, in interval order
   * @param redelivery whether this repeats an earlier delivery unchanged
   * @param correction whether these are corrections at higher versions
   */
  public record Delivery(List<Reading> readings, boolean redelivery, boolean correction) {}
}
