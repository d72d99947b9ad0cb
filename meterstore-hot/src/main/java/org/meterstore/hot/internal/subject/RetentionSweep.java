package org.meterstore.hot.internal.subject;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.Year;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.meterstore.api.privacy.Retention;
import org.meterstore.hot.internal.sql.Database;
import org.meterstore.hot.subject.SubjectRef;
import org.meterstore.hot.subject.SweepResult;
import org.meterstore.hot.subject.TrailAction;
import org.meterstore.hot.subject.TrailEntry;
import org.meterstore.hot.subject.Trigger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Executes the retention sweep: the plan is {@link Retention#dueThrough} (pure), the execution a
 * loop of short transactions, each deleting at most one batch of due, unheld mappings and appending
 * one trail entry for them. PostgreSQL's DELETE has no LIMIT, so a batch is chosen by a sub-select
 * with {@code LIMIT … FOR UPDATE SKIP LOCKED}: rows a registration, a hold or another sweep has
 * locked are left for later, so concurrent sweeps share the work without waiting or counting a row
 * twice. Only the registry's tables are touched; no readings table is read.
 */
final class RetentionSweep {
  /** Runs inside each batch's transaction after its DELETE and trail entry; a test hook. */
  @FunctionalInterface
  interface AfterBatch {
    /** Called with the batch number (from 1); throwing rolls that batch back. */
    void run(int batch) throws SQLException;
  }

  private static final Logger LOG = LoggerFactory.getLogger(RetentionSweep.class);

  private final Database db;
  private final ErasureTrail trail;
  private final SubjectMetrics metrics;
  private final AfterBatch afterBatch;
  private final String deleteBatch;
  private final String countHeld;

  RetentionSweep(Database db, ErasureTrail trail, SubjectMetrics metrics, AfterBatch afterBatch) {
    this.db = db;
    this.trail = trail;
    this.metrics = metrics;
    this.afterBatch = afterBatch;
    String subjects = db.qualified("subjects");
    String held =
        "EXISTS (SELECT 1 FROM "
            + db.qualified("subject_holds")
            + " h JOIN "
            + subjects
            + " p ON p.reference = h.reference WHERE p.natural_id = s.natural_id"
            + " AND (h.held_until IS NULL OR h.held_until > ?))";
    this.deleteBatch =
        "DELETE FROM "
            + subjects
            + " WHERE reference IN (SELECT s.reference FROM "
            + subjects
            + " s WHERE s.collection_year <= ? AND NOT "
            + held
            + " LIMIT ? FOR UPDATE OF s SKIP LOCKED) RETURNING reference";
    this.countHeld =
        "SELECT count(*) FROM " + subjects + " s WHERE s.collection_year <= ? AND " + held;
  }

  SweepResult run(Retention retention, Audit audit, int batchSize, int max) {
    Instant now = audit.now();
    Optional<Year> due = retention.dueThrough(now);
    if (due.isEmpty()) {
      return SweepResult.nothingDue();
    }
    Year through = due.get();
    long erased = 0;
    int batches = 0;
    boolean complete = false;
    while (batches < max) {
      int number = batches + 1;
      List<SubjectRef> batch =
          db.transaction(
              () -> "run batch " + number + " of the retention sweep through " + through,
              c -> deleteBatch(c, through, batchSize, number, audit));
      metrics.erased(Trigger.RETENTION, batch.size());
      erased += batch.size();
      if (!batch.isEmpty()) {
        batches++;
      }
      if (batch.size() < batchSize) {
        complete = true;
        break;
      }
    }
    long held =
        db.transaction(
            () -> "count held mappings due through " + through, c -> countHeld(c, through, now));
    SweepResult result = new SweepResult(due, erased, held, batches, complete);
    if (erased > 0 || held > 0) {
      LOG.info(
          "Retention sweep through collection year {}: erased {} mapping(s) in {} batch(es),"
              + " kept {} under legal hold{}",
          through,
          erased,
          batches,
          held,
          complete ? "" : "; stopped at the batch limit");
    }
    return result;
  }

  private List<SubjectRef> deleteBatch(
      Connection c, Year through, int batchSize, int number, Audit audit) throws SQLException {
    List<SubjectRef> erased = new ArrayList<>();
    try (PreparedStatement s = c.prepareStatement(deleteBatch)) {
      s.setInt(1, through.getValue());
      s.setObject(2, audit.now().atOffset(ZoneOffset.UTC));
      s.setInt(3, batchSize);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          erased.add(new SubjectRef(rs.getString(1)));
        }
      }
    }
    if (erased.isEmpty()) {
      return erased;
    }
    erased.sort(Comparator.comparing(SubjectRef::value));
    trail.append(
        c,
        new TrailEntry(
            0,
            audit.now(),
            TrailAction.ERASE,
            Trigger.RETENTION,
            erased,
            erased.size(),
            audit.reason(),
            audit.actor(),
            null,
            through,
            null));
    afterBatch.run(number);
    return erased;
  }

  private long countHeld(Connection c, Year through, Instant now) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(countHeld)) {
      s.setInt(1, through.getValue());
      s.setObject(2, now.atOffset(ZoneOffset.UTC));
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }
}
