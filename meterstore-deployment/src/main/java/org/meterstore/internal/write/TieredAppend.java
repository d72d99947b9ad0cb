package org.meterstore.internal.write;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.LongCounter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.reading.Tier;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.commit.CorrectionCheck;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.hot.HotStore;
import org.meterstore.hot.write.BelowFloorException;
import org.meterstore.maintenance.window.TierWatermark;

/**
 * {@code append} (DESIGN § 4): routes each reading of a batch by the watermark and writes both
 * parts so that no reading is ever stored below W in PostgreSQL.
 *
 * <p>Why this order: the cold part is checked first without writing (so a restated value or a
 * second operator in either tier refuses the whole batch before anything lands); then the hot part
 * is written in one transaction with W as its floor; then the cold part is appended. After writing,
 * W is read again. If archival moved it meanwhile, the readings that now lie below it are appended
 * to the cold tier as well: either they were archived with their partition (the append reports them
 * {@code DUPLICATE} and their hot outcome stands) or the hot write was refused because their window
 * was archived (then the cold append is what stores them). Both writes are idempotent, so a batch
 * that failed half-way completes when retried.
 */
public final class TieredAppend {
  private static final AttributeKey<String> TABLE = AttributeKey.stringKey("table");

  /** Routing rounds before giving up: each round needs archival to move W once more. */
  private static final int MAX_ROUNDS = 4;

  private final HotStore hot;
  private final Function<TableDefinition, ColdTable> cold;
  private final LongCounter lateCorrections;
  private final AppendHook hook;

  /** An appender over {@code hot} and the cold tables {@code cold} finds. */
  public TieredAppend(
      HotStore hot,
      Function<TableDefinition, ColdTable> cold,
      OpenTelemetry otel,
      AppendHook hook) {
    this.hot = Objects.requireNonNull(hot, "hot");
    this.cold = Objects.requireNonNull(cold, "cold");
    this.hook = Objects.requireNonNull(hook, "hook");
    this.lateCorrections =
        otel.getMeter("org.meterstore")
            .counterBuilder("meterstore.write.late_corrections")
            .setUnit("{reading}")
            .setDescription("Readings below W that append wrote to the cold tier")
            .build();
  }

  /** Appends {@code batch} to {@code table} at {@code now}; see {@code MeterTable.append}. */
  public WriteResult append(TableDefinition table, List<Reading> batch, Instant now) {
    List<Reading> readings = requireReadings(table, batch);
    if (readings.isEmpty()) {
      return new WriteResult(List.of(), List.of());
    }
    ColdTable coldTable = cold.apply(table);
    Batch state = new Batch(table, readings, now);
    TierWatermark watermark = new TierWatermark(hot, coldTable, table);
    Instant w = watermark.unguarded(TierWatermark.Unguarded.ROUTING);
    state.route(w);
    if (!state.pendingCold.isEmpty()) {
      // a correction appended onto a rolled-back history would be lost when it is rolled forward;
      // read only when a reading goes to the cold tier, so the common append pays nothing for it
      watermark.read();
    }
    // the cold part classified once: the first cold append reuses it unless a commit intervened
    CorrectionCheck checked = coldTable.checkCorrections(state.stamped(state.pendingCold));
    for (int round = 1; ; round++) {
      hook.at(AppendPoint.AFTER_ROUTING, table.name(), w);
      if (writeHot(state, w, watermark)) {
        hook.at(AppendPoint.AFTER_HOT, table.name(), w);
      }
      if (writeCold(state, coldTable, state.pendingCold, checked)) {
        hook.at(AppendPoint.AFTER_COLD, table.name(), w);
      }
      Instant now2 = watermark.unguarded(TierWatermark.Unguarded.ROUTING);
      if (!now2.isAfter(w) && state.pendingHot.isEmpty()) {
        break;
      }
      if (round == MAX_ROUNDS) {
        throw state.failure(
            ErrorKind.LOCK_TIMEOUT,
            "archival moved W " + MAX_ROUNDS + " times while the batch was written",
            null);
      }
      w = now2;
      state.reroute(w);
      if (writeCold(state, coldTable, state.rerouted, null)) {
        hook.at(AppendPoint.AFTER_REROUTE, table.name(), w);
      }
    }
    int late = state.lateCount();
    if (late > 0) {
      lateCorrections.add(late, Attributes.of(TABLE, table.name()));
    }
    return state.result();
  }

  /** Writes the hot part; true when it committed (false: nothing pending, or refused below W). */
  private boolean writeHot(Batch state, Instant w, TierWatermark watermark) {
    if (state.pendingHot.isEmpty()) {
      return false;
    }
    List<Integer> part = List.copyOf(state.pendingHot);
    try {
      WriteResult written = hot.write(state.table, state.readings(part), state.now, w);
      state.landed(part, written.outcomes(), Tier.HOT);
      state.pendingHot.clear();
      return true;
    } catch (BelowFloorException e) {
      // the window was archived or is being archived: route by the W archival commits next
      if (!watermark.unguarded(TierWatermark.Unguarded.ROUTING).isAfter(w)) {
        try {
          watermark.read();
        } catch (MeterStoreException behind) {
          throw state.anyLanded() ? state.failure(behind) : behind;
        }
        throw state.failure(
            ErrorKind.LOCK_TIMEOUT,
            "a window of the batch is being archived and W has not moved yet ("
                + e.getMessage()
                + ")",
            e);
      }
      return false;
    } catch (MeterStoreException e) {
      throw state.anyLanded() ? state.failure(e) : e;
    }
  }

  /**
   * Appends {@code part} to the cold tier; true when a commit was made (false: nothing to do).
   * {@code checked} is the routed cold part's check (the first round), or null for readings
   * re-routed after W moved.
   */
  private boolean writeCold(
      Batch state, ColdTable coldTable, List<Integer> part, CorrectionCheck checked) {
    if (part.isEmpty()) {
      return false;
    }
    List<Integer> indices = List.copyOf(part);
    try {
      List<WriteOutcome> outcomes =
          (checked != null
                  ? coldTable.appendCorrections(checked, state.now)
                  : coldTable.appendCorrections(state.stamped(indices), state.now))
              .outcomes();
      state.landedCold(indices, outcomes, checked == null);
      part.clear();
      return true;
    } catch (MeterStoreException e) {
      throw state.failure(e);
    }
  }

  private static List<Reading> requireReadings(TableDefinition table, List<Reading> batch) {
    if (batch == null) {
      throw MeterStoreException.invalid("batch", null, "a list of readings");
    }
    List<Reading> copy = new ArrayList<>(batch.size());
    for (int i = 0; i < batch.size(); i++) {
      Reading r = batch.get(i);
      if (r == null) {
        throw MeterStoreException.invalid("batch[" + i + "]", null, "a reading");
      }
      table.accept(r);
      copy.add(r);
    }
    return copy;
  }

  /** One batch's routing and what has landed where. */
  private static final class Batch {
    final TableDefinition table;
    final List<Reading> readings;
    final Instant now;
    final WriteOutcome[] outcomes;
    final Tier[] tiers;
    final boolean[] late;
    final List<Integer> pendingHot = new ArrayList<>();
    final List<Integer> pendingCold = new ArrayList<>();
    final List<Integer> rerouted = new ArrayList<>();

    Batch(TableDefinition table, List<Reading> readings, Instant now) {
      this.table = table;
      this.readings = readings;
      this.now = now;
      this.outcomes = new WriteOutcome[readings.size()];
      this.tiers = new Tier[readings.size()];
      this.late = new boolean[readings.size()];
    }

    void route(Instant w) {
      for (int i = 0; i < readings.size(); i++) {
        (readings.get(i).from().isBefore(w) ? pendingCold : pendingHot).add(i);
      }
    }

    /**
     * After W moved to {@code w}: what landed hot below it, and what the hot tier refused below it,
     * goes cold in one append (a refused reading has no hot outcome to keep).
     */
    void reroute(Instant w) {
      for (int i = 0; i < readings.size(); i++) {
        if (tiers[i] == Tier.HOT && readings.get(i).from().isBefore(w)) {
          rerouted.add(i);
        }
      }
      pendingHot.removeIf(
          i -> {
            if (readings.get(i).from().isBefore(w)) {
              rerouted.add(i);
              return true;
            }
            return false;
          });
      rerouted.sort(null);
    }

    List<Reading> readings(List<Integer> indices) {
      return indices.stream().map(readings::get).toList();
    }

    List<StoredReading> stamped(List<Integer> indices) {
      return indices.stream().map(i -> StoredReading.accept(readings.get(i), now)).toList();
    }

    void landed(List<Integer> indices, List<WriteOutcome> result, Tier tier) {
      for (int k = 0; k < indices.size(); k++) {
        outcomes[indices.get(k)] = result.get(k);
        tiers[indices.get(k)] = tier;
      }
    }

    /**
     * A reading re-routed after landing hot keeps its hot outcome when the cold tier already has it
     * (archived with its partition); otherwise the cold append is what stored it.
     */
    void landedCold(List<Integer> indices, List<WriteOutcome> result, boolean reroutedRound) {
      for (int k = 0; k < indices.size(); k++) {
        int i = indices.get(k);
        boolean keepHotOutcome =
            reroutedRound && outcomes[i] != null && result.get(k) == WriteOutcome.DUPLICATE;
        if (!keepHotOutcome) {
          outcomes[i] = result.get(k);
          late[i] = true;
        }
        tiers[i] = Tier.COLD;
      }
    }

    boolean anyLanded() {
      for (Tier t : tiers) {
        if (t != null) {
          return true;
        }
      }
      return false;
    }

    int lateCount() {
      int n = 0;
      for (boolean b : late) {
        n += b ? 1 : 0;
      }
      return n;
    }

    WriteResult result() {
      return new WriteResult(List.of(outcomes), List.of(tiers));
    }

    /** A failure of this append itself: retryable as its kind is by default. */
    MeterStoreException failure(ErrorKind kind, String reason, Throwable cause) {
      return failure(kind, kind.retryableByDefault(), reason, cause);
    }

    /** A tier's failure, restated with what had landed: as retryable as {@code cause}. */
    MeterStoreException failure(MeterStoreException cause) {
      return failure(cause.kind(), cause.isRetryable(), cause.getMessage(), cause);
    }

    private MeterStoreException failure(
        ErrorKind kind, boolean retryable, String reason, Throwable cause) {
      List<String> landed = new ArrayList<>();
      for (int i = 0; i < tiers.length; i++) {
        if (tiers[i] != null) {
          landed.add(i + "=" + tiers[i]);
        }
      }
      String message =
          "Cannot append "
              + readings.size()
              + " readings to table "
              + table.name()
              + ": "
              + reason
              + "; landed before the failure (batch position=tier): "
              + (landed.isEmpty() ? "none" : String.join(", ", landed))
              + "; the same batch, retried, reports them DUPLICATE";
      return new MeterStoreException(kind, retryable, message, cause);
    }
  }
}
