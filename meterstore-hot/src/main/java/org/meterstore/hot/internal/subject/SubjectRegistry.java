package org.meterstore.hot.internal.subject;

import io.opentelemetry.api.OpenTelemetry;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.time.Year;
import java.util.List;
import java.util.Optional;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.calendar.MeteringCalendar;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.privacy.Retention;
import org.meterstore.hot.internal.sql.AdvisoryLocks;
import org.meterstore.hot.internal.sql.Database;
import org.meterstore.hot.subject.ErasureKeys;
import org.meterstore.hot.subject.ErasureResult;
import org.meterstore.hot.subject.SubjectRef;
import org.meterstore.hot.subject.Subjects;
import org.meterstore.hot.subject.SweepResult;
import org.meterstore.hot.subject.TrailAction;
import org.meterstore.hot.subject.TrailEntry;
import org.meterstore.hot.subject.Trigger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link Subjects} of one store: checks arguments, runs each operation in one transaction under
 * the identifier's advisory lock and records metrics after commit. The SQL lives in {@link
 * SubjectRows}, {@link Suppressions}, {@link ErasureTrail} and {@link RetentionSweep}. Thread-safe.
 */
public final class SubjectRegistry implements Subjects {
  private static final Logger LOG = LoggerFactory.getLogger(SubjectRegistry.class);

  private final Database db;
  private final SubjectRows rows;
  private final Suppressions suppressions;
  private final ErasureTrail trail;
  private final SubjectMetrics metrics;
  private final RetentionSweep sweep;
  private final References references = new References();

  /**
   * The registry in {@code db}'s schema.
   *
   * @param keys the erasure key ring, or null for no suppression list
   */
  public SubjectRegistry(Database db, ErasureKeys keys, OpenTelemetry openTelemetry) {
    this(db, keys, openTelemetry, batch -> {});
  }

  /** As above, with a hook run inside every sweep batch's transaction (for tests). */
  SubjectRegistry(
      Database db,
      ErasureKeys keys,
      OpenTelemetry openTelemetry,
      RetentionSweep.AfterBatch afterBatch) {
    this.db = db;
    this.rows = new SubjectRows(db.schema());
    this.suppressions = new Suppressions(db.schema(), keys);
    this.trail = new ErasureTrail(db.schema());
    this.metrics = new SubjectMetrics(openTelemetry);
    this.sweep = new RetentionSweep(db, trail, metrics, afterBatch);
  }

  @Override
  public SubjectRef registerSubject(
      String naturalId, Instant at, Commodity commodity, Instant now) {
    String id = NaturalIds.normalise(naturalId);
    Arguments.required("at", at);
    Arguments.required("commodity", commodity);
    Arguments.required("now", now);
    Year year = Year.of(MeteringCalendar.balancingDay(at, commodity).getYear());
    Arguments.range("collection year", year.getValue(), 1970, 9000);
    return db.transaction(
        () -> "register a subject for collection year " + year,
        c -> {
          lock(c, id);
          Optional<String> suppressedBy = suppressions.match(c, id);
          if (suppressedBy.isPresent()) {
            metrics.registrationSuppressed();
            LOG.warn(
                "Refused to register a subject for {}: the identifier was erased (suppression key"
                    + " {}); a pipeline is replaying data from before the erasure",
                year,
                suppressedBy.get());
            throw new MeterStoreException(
                ErrorKind.INTEGRITY_VIOLATION,
                "Cannot register a subject for collection year "
                    + year
                    + ": the identifier was erased (Art. 17 GDPR) and is on the suppression list"
                    + " (key "
                    + suppressedBy.get()
                    + "); the delivery must change, or lift the suppression");
          }
          Optional<SubjectRef> existing = rows.find(c, id, year);
          if (existing.isPresent()) {
            return existing.get();
          }
          SubjectRef reference = references.next(year);
          rows.insert(c, reference, id, year, now);
          return reference;
        });
  }

  @Override
  public ErasureResult eraseSubject(
      SubjectRef reference, String reason, String actor, Instant now) {
    Arguments.required("subject reference", reference);
    Audit audit = new Audit(reason, actor, now);
    ErasureResult result =
        db.transaction(
            () -> "erase subject " + reference,
            c -> {
              Optional<String> id = rows.naturalIdOf(c, reference);
              if (id.isPresent()) {
                return eraseLocked(c, id.get(), audit);
              }
              ErasureResult nothingLeft = new ErasureResult(List.of(), null);
              appendErasure(c, nothingLeft, audit);
              return nothingLeft;
            });
    return erased(result);
  }

  @Override
  public ErasureResult eraseSubject(String naturalId, String reason, String actor, Instant now) {
    String id = NaturalIds.normalise(naturalId);
    Audit audit = new Audit(reason, actor, now).about(id);
    return erased(
        db.transaction(() -> "erase a subject by natural id", c -> eraseLocked(c, id, audit)));
  }

  @Override
  public int liftSuppression(String naturalId, String reason, String actor, Instant now) {
    String id = NaturalIds.normalise(naturalId);
    Audit audit = new Audit(reason, actor, now).about(id);
    int lifted =
        db.transaction(
            () -> "lift a suppression",
            c -> {
              lock(c, id);
              int removed = suppressions.lift(c, id);
              trail.append(c, entry(audit, TrailAction.LIFT_SUPPRESSION, List.of(), removed, null));
              return removed;
            });
    LOG.info("Lifted a suppression ({} entries removed) by {}", lifted, audit.actor());
    return lifted;
  }

  @Override
  public void holdSubject(
      SubjectRef reference, String reason, Instant until, String actor, Instant now) {
    Arguments.required("subject reference", reference);
    Audit audit = new Audit(reason, actor, now);
    if (until != null && !until.isAfter(now)) {
      throw MeterStoreException.invalid("until", until, "after now " + now + ", or null");
    }
    db.transaction(
        () -> "hold subject " + reference,
        c -> {
          Optional<String> id = rows.naturalIdOf(c, reference);
          if (id.isPresent()) {
            lock(c, id.get());
          }
          // a sweep or an erasure may have removed it while this transaction waited
          if (id.isEmpty() || !rows.lockAll(c, id.get()).contains(reference)) {
            throw MeterStoreException.invalid(
                "subject reference",
                reference,
                "not in the registry (erased, or never registered)");
          }
          rows.hold(c, reference, audit, until);
          trail.append(c, entry(audit, TrailAction.HOLD, List.of(reference), 1, until));
          return null;
        });
    LOG.info(
        "Placed a legal hold on subject {} until {} by {}",
        reference,
        until == null ? "further notice" : until,
        audit.actor());
  }

  @Override
  public boolean releaseHold(SubjectRef reference, String reason, String actor, Instant now) {
    Arguments.required("subject reference", reference);
    Audit audit = new Audit(reason, actor, now);
    boolean released =
        db.transaction(
            () -> "release the hold on subject " + reference,
            c -> {
              Optional<String> id = rows.naturalIdOf(c, reference);
              if (id.isEmpty()) {
                return false;
              }
              lock(c, id.get());
              if (!rows.release(c, reference)) {
                return false;
              }
              trail.append(c, entry(audit, TrailAction.RELEASE, List.of(reference), 1, null));
              return true;
            });
    if (released) {
      LOG.info("Released the legal hold on subject {} by {}", reference, audit.actor());
    }
    return released;
  }

  @Override
  public SweepResult sweep(Retention retention, String reason, String actor, Instant now) {
    return sweep(retention, reason, actor, now, DEFAULT_SWEEP_BATCH_SIZE);
  }

  @Override
  public SweepResult sweep(
      Retention retention, String reason, String actor, Instant now, int batchSize) {
    return sweep(retention, reason, actor, now, batchSize, Integer.MAX_VALUE);
  }

  @Override
  public SweepResult sweep(
      Retention retention,
      String reason,
      String actor,
      Instant now,
      int batchSize,
      int maxBatches) {
    Arguments.required("retention", retention);
    Audit audit = new Audit(reason, actor, now);
    Arguments.range("batch size", batchSize, 1, Arguments.MAX_ROWS);
    Arguments.range("max batches", maxBatches, 1, Integer.MAX_VALUE);
    return sweep.run(retention, audit, batchSize, maxBatches);
  }

  @Override
  public List<TrailEntry> erasures(
      Instant fromInclusive, Instant toExclusive, Trigger trigger, int limit) {
    return read(fromInclusive, toExclusive, true, trigger, limit);
  }

  @Override
  public List<TrailEntry> trail(Instant fromInclusive, Instant toExclusive, int limit) {
    return read(fromInclusive, toExclusive, false, null, limit);
  }

  @Override
  public List<String> suppressionKeysMissing() {
    return db.transaction(() -> "list suppression keys", suppressions::missingKeys);
  }

  private List<TrailEntry> read(
      Instant from, Instant to, boolean erasuresOnly, Trigger trigger, int limit) {
    Arguments.required("from", from);
    Arguments.required("to", to);
    Arguments.range("limit", limit, 1, Arguments.MAX_ROWS);
    return db.transaction(
        () -> "read the erasure trail from " + from + " to " + to,
        c -> trail.read(c, from, to, erasuresOnly, trigger, limit));
  }

  /** Deletes every mapping of the locked person, suppresses the identifier and audits it. */
  private ErasureResult eraseLocked(Connection c, String id, Audit audit) throws SQLException {
    lock(c, id);
    List<SubjectRef> held = rows.activeHolds(c, id, audit.now());
    if (!held.isEmpty()) {
      throw new MeterStoreException(
          ErrorKind.INTEGRITY_VIOLATION,
          "Cannot erase subject "
              + held.get(0)
              + ": it is under a legal hold; release the hold first (nothing was erased)");
    }
    List<SubjectRef> erased = rows.deleteAll(c, id);
    String keyId = suppressions.record(c, id, audit.now());
    ErasureResult result = new ErasureResult(erased, keyId);
    appendErasure(c, result, audit);
    return result;
  }

  private void appendErasure(Connection c, ErasureResult result, Audit audit) throws SQLException {
    trail.append(
        c,
        new TrailEntry(
            0,
            audit.now(),
            TrailAction.ERASE,
            Trigger.REQUEST,
            result.erased(),
            result.count(),
            audit.reason(),
            audit.actor(),
            null,
            null,
            result.suppressionKeyId()));
  }

  private ErasureResult erased(ErasureResult result) {
    metrics.erased(Trigger.REQUEST, result.count());
    LOG.info(
        "Erased {} subject mapping(s) on request{}: {}",
        result.count(),
        result.suppressed() ? ", identifier suppressed" : "",
        result.erased());
    return result;
  }

  /** A trail entry for an action other than an erasure. */
  private static TrailEntry entry(
      Audit audit, TrailAction action, List<SubjectRef> refs, int affected, Instant until) {
    return new TrailEntry(
        0,
        audit.now(),
        action,
        null,
        refs,
        affected,
        audit.reason(),
        audit.actor(),
        until,
        null,
        null);
  }

  private void lock(Connection c, String id) throws SQLException {
    AdvisoryLocks.lockExclusive(c, AdvisoryLocks.SUBJECT, NaturalIds.lockKey(db.schema(), id));
  }
}
