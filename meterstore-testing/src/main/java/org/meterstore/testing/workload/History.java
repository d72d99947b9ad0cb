package org.meterstore.testing.workload;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.table.TableDefinition;

/**
 * One generated history of a table: everything that happens to it, in the order of the simulated
 * clock — deliveries (originals with gaps, fills, corrections, out-of-order corrections that end
 * {@code SHADOWED}, redeliveries), maintenance cycles, foreign commits with a re-stamp, tags,
 * writes through a stale hot writer, and checks. Made by {@link HistoryGenerator#generate(long)}
 * from a seed alone, so a failing history is replayed from its seed.
 *
 * @param seed what the history was generated from
 * @param table the table, named after the seed, with a {@code tenant} identity column
 * @param firstDay the first balancing day delivered (Europe/Berlin)
 * @param days the number of balancing days delivered
 * @param events in the order of their {@code at}; the last is a full {@link Check}
 */
public record History(
    long seed, TableDefinition table, LocalDate firstDay, int days, List<Event> events) {

  /** Copies the events. */
  public History {
    events = List.copyOf(events);
  }

  /** How many events are deliveries. */
  public long deliveries() {
    return events.stream().filter(Deliver.class::isInstance).count();
  }

  @Override
  public String toString() {
    return "History[seed="
        + seed
        + ", "
        + firstDay
        + " + "
        + days
        + " days, "
        + events.size()
        + " events, policy "
        + table.policy()
        + "]";
  }

  /** Something that happens to the table at simulated instant {@link #at()} (UTC). */
  public sealed interface Event
      permits Deliver, Maintain, ForeignCommit, Tag, StaleHotWrite, Check {
    /** When it happens on the simulated clock. */
    Instant at();
  }

  /** What a delivery is, for the reader of a failure (the store is not told). */
  public enum Kind {
    /** The first delivery of a meter's day, with gaps. */
    ORIGINAL,
    /** Readings missing from an original, delivered later. */
    FILL,
    /** Corrections at higher versions; some lower than an earlier correction (SHADOWED). */
    CORRECTION,
    /** An earlier delivery repeated unchanged (every reading DUPLICATE). */
    REDELIVERY
  }

  /** A delivery handed to {@code append}: one batch, all or nothing. */
  public record Deliver(Instant at, Kind kind, List<Reading> readings) implements Event {
    /** Copies the readings. */
    public Deliver {
      readings = List.copyOf(readings);
    }

    @Override
    public String toString() {
      return "Deliver[" + at + ", " + kind + ", " + readings.size() + " readings]";
    }
  }

  /**
   * One maintenance cycle at {@code at}: archival of at most {@code maxWindows} due windows,
   * reclamation after the reader grace, and snapshot expiry when {@code expire}.
   */
  public record Maintain(Instant at, int maxWindows, boolean expire) implements Event {}

  /**
   * A foreign tool commits a snapshot without W on top of the table; MeterStore then re-stamps W
   * onto it. The commit is empty, or with {@code tie} it appends a data file holding a copy of one
   * archived current version (a reading no later delivery touches) with another value and a later
   * {@code recorded_at}: a tie in {@code version} that {@code recorded_at} must break.
   */
  public record ForeignCommit(Instant at, boolean tie) implements Event {}

  /** The table's current snapshot is tagged {@code name}. */
  public record Tag(Instant at, String name) implements Event {}

  /**
   * A hot writer made when the table was created (it saw no W) writes {@code readings} at {@code
   * at}: when archival moved W past them since, the hot tier itself must refuse them (the hot
   * floor) and write nothing; otherwise they land hot.
   */
  public record StaleHotWrite(Instant at, List<Reading> readings) implements Event {
    /** Copies the readings. */
    public StaleHotWrite {
      readings = List.copyOf(readings);
    }

    @Override
    public String toString() {
      return "StaleHotWrite[" + at + ", " + readings.size() + " readings]";
    }
  }

  /** Every query is compared with the model; {@code full} adds every read mode. */
  public record Check(Instant at, boolean full) implements Event {}

  /** The simulated span the history covers. */
  public Duration span() {
    return Duration.between(events.get(0).at(), events.get(events.size() - 1).at());
  }
}
