package org.meterstore.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.query.Fixtures.DAY1;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.maintenance.testing.TwoTiers;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.Workload;

/**
 * Sixteen clients ask one location's questions — a closed range, a recent range, a range across W,
 * daily sums — each on its own connection, while archival moves W day by day and reclaims the
 * archived partitions in between. Every answer equals the reference (the readings never change;
 * only the tier that holds them does), and no reader pin is left afterwards.
 */
@ExtendWith(PostgresExtension.class)
class PointReadConcurrencyIT {
  private static final int METERS = 12;
  private static final int DAYS = 10;
  private static final int CLIENTS = 16;
  private static final Duration LAG = Duration.ofDays(1);
  private static final Duration GRACE = Duration.ofMinutes(30);
  private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

  private static final String ROWS =
      "SELECT \"from\", \"value\" FROM punkt WHERE malo_id = ? AND \"from\" >= ? AND \"from\" < ?"
          + " ORDER BY \"from\"";
  private static final String DAILY =
      "SELECT balancing_day, sum(\"value\") FROM punkt WHERE malo_id = ? AND \"from\" >= ?"
          + " AND \"from\" < ? GROUP BY balancing_day ORDER BY balancing_day";

  @TempDir Path warehouse;

  /** One question: the statement, the location and the {@code from} range. */
  private record Question(boolean daily, int meter, Instant from, Instant to) {}

  @Test
  void everyAnswerEqualsTheReferenceWhileArchivalMovesWatermarkAndReclaims(TestDatabase db)
      throws Exception {
    TableDefinition def = TwoTiers.table("punkt", LAG, GRACE);
    Instant end = DAY1.plus(Duration.ofDays(DAYS));
    try (QueryFixture d =
        new QueryFixture(db, warehouse, Instant.parse("2026-02-01T00:00:00Z"), List.of(def))) {
      Map<String, BigDecimal> winners = new TreeMap<>();
      d.hot.write(def, record(winners, Fixtures.hourly(METERS, DAY1, end, "20260105000000")), DAY1);
      // corrections of meters 1-4 on days 2-5, at a higher version: resolution decides the answer
      List<Reading> corrections = new ArrayList<>();
      for (Instant t = DAY1.plus(Duration.ofDays(1));
          t.isBefore(DAY1.plus(Duration.ofDays(5)));
          t = t.plus(Duration.ofHours(1))) {
        for (int m = 1; m <= 4; m++) {
          corrections.add(Fixtures.reading(m, t, m + "0.125", "20260107000000"));
        }
      }
      d.hot.write(def, record(winners, corrections), DAY1);
      d.archive(def, DAY1, DAY1.plus(Duration.ofDays(2)), true);

      AtomicBoolean stop = new AtomicBoolean();
      AtomicInteger answered = new AtomicInteger();
      ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
      List<Thread> clients = new ArrayList<>();
      for (int i = 0; i < CLIENTS; i++) {
        long seed = i;
        Thread t =
            new Thread(
                () -> ask(d, seed, end, winners, stop, answered, wrong), "point-client-" + i);
        clients.add(t);
        t.start();
      }
      for (int day = 3; day <= DAYS - 2; day++) {
        Thread.sleep(150);
        Instant w = d.coldTable(def).watermark();
        d.archive(def, w, DAY1.plus(Duration.ofDays(day)), true);
      }
      Thread.sleep(150);
      // on a slow or busy machine the cycles can end before the clients got far: let them reach
      // the count asserted below (most of their questions still ran while archival moved W)
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
      while (answered.get() <= CLIENTS * 4 && wrong.isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      stop.set(true);
      for (Thread t : clients) {
        t.join();
      }

      assertThat(wrong).as("answers that differ from the reference").isEmpty();
      assertThat(answered.get()).as("questions answered").isGreaterThan(CLIENTS * 4);
      assertThat(d.coldTable(def).watermark()).isEqualTo(DAY1.plus(Duration.ofDays(DAYS - 2)));
      assertThat(d.hot.pins().active("punkt", d.clock.instant())).as("reader pins left").isEmpty();
    }
  }

  private static List<Reading> record(Map<String, BigDecimal> winners, List<Reading> readings) {
    readings.forEach(r -> winners.put(key(r.maloId().value(), r.from()), r.value()));
    return readings;
  }

  private static String key(String malo, Instant from) {
    return malo + "|" + from;
  }

  private static void ask(
      QueryFixture d,
      long seed,
      Instant end,
      Map<String, BigDecimal> winners,
      AtomicBoolean stop,
      AtomicInteger answered,
      ConcurrentLinkedQueue<String> wrong) {
    Random random = new Random(seed);
    try (Connection c = d.catalog.connection();
        PreparedStatement rows = c.prepareStatement(ROWS);
        PreparedStatement daily = c.prepareStatement(DAILY)) {
      while (!stop.get()) {
        Question q = question(random, end);
        List<String> got = answer(q.daily() ? daily : rows, q);
        List<String> expected = expected(q, winners);
        if (!got.equals(expected)) {
          wrong.add(q + ": got " + got.size() + " rows, expected " + expected.size());
        }
        answered.incrementAndGet();
      }
    } catch (SQLException | RuntimeException e) {
      wrong.add("failed: " + e);
    }
  }

  /** One of the four shapes for a random location: closed days, recent days, across W, sums. */
  private static Question question(Random random, Instant end) {
    int meter = 1 + random.nextInt(METERS);
    return switch (random.nextInt(4)) {
      case 0 -> new Question(false, meter, DAY1, DAY1.plus(Duration.ofDays(4)));
      case 1 -> new Question(false, meter, end.minus(Duration.ofDays(3)), end);
      case 2 ->
          new Question(false, meter, DAY1.plus(Duration.ofDays(2)), end.minus(Duration.ofDays(1)));
      default -> new Question(true, meter, DAY1, end);
    };
  }

  private static List<String> answer(PreparedStatement s, Question q) throws SQLException {
    s.setString(1, Workload.malo(q.meter()));
    s.setTimestamp(2, Timestamp.from(q.from()));
    s.setTimestamp(3, Timestamp.from(q.to()));
    List<String> out = new ArrayList<>();
    try (ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        String first = q.daily() ? rs.getString(1) : rs.getTimestamp(1).toInstant().toString();
        out.add(first + "|" + rs.getBigDecimal(2).stripTrailingZeros().toPlainString());
      }
    }
    return out;
  }

  private static List<String> expected(Question q, Map<String, BigDecimal> winners) {
    String malo = Workload.malo(q.meter());
    Map<String, BigDecimal> out = new TreeMap<>();
    for (Instant t = q.from(); t.isBefore(q.to()); t = t.plus(Duration.ofHours(1))) {
      BigDecimal v = winners.get(key(malo, t));
      if (q.daily()) {
        String day = LocalDate.ofInstant(t, BERLIN).toString();
        out.merge(day, v, BigDecimal::add);
      } else {
        out.put(t.toString(), v);
      }
    }
    List<String> lines = new ArrayList<>();
    out.forEach((k, v) -> lines.add(k + "|" + v.stripTrailingZeros().toPlainString()));
    return lines;
  }
}
