package org.meterstore.hot.internal.write;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.Tier;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.api.table.TimeModel;
import org.meterstore.hot.internal.partition.PartitionManager;
import org.meterstore.hot.internal.schema.ExclusionConstraint;
import org.meterstore.hot.internal.sql.Database;
import org.meterstore.hot.internal.sql.SqlErrors;
import org.meterstore.hot.write.BelowFloorException;
import org.postgresql.util.PSQLException;

/**
 * Writes batches (DESIGN § 4): validate everything, ensure the partitions the batch needs (lowest
 * first; a window below the table's floor is refused before any is created), then in one
 * transaction check subject references against the registry (tables with a subject column only),
 * lock against crossing writes, read the table's floor under its registry row's share lock and
 * refuse readings below it, read the stored versions of the batch's merge keys, decide every
 * outcome, check spans across partitions and insert the new rows with one statement. A refused
 * batch rolls back whole. A batch that meets a concurrent writer's identical rows or a partition
 * detached behind this store's back is retried once. Thread-safe.
 */
public final class BatchWriter {
  private final Database db;
  private final PartitionManager partitions;
  private final WriteMetrics metrics;
  private final Map<TableDefinition, Statements> statements = new ConcurrentHashMap<>();

  /** A writer into {@code db}'s schema that creates partitions through {@code partitions}. */
  public BatchWriter(Database db, PartitionManager partitions, WriteMetrics metrics) {
    this.db = db;
    this.partitions = partitions;
    this.metrics = metrics;
  }

  /**
   * Writes {@code batch} to {@code table} at {@code now}.
   *
   * @param floor readings with {@code from < floor} are refused; null for no floor (the table's
   *     recorded floor applies either way)
   * @throws BelowFloorException for a reading below either floor or in a detached window
   */
  public WriteResult write(TableDefinition table, List<Reading> batch, Instant now, Instant floor) {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(batch, "batch");
    if (now == null) {
      throw MeterStoreException.invalid("now", null, "required: the instant of the write");
    }
    if (batch.isEmpty()) {
      return new WriteResult(List.of(), List.of());
    }
    Statements st = statements.computeIfAbsent(table, t -> new Statements(t, db.schema()));
    List<BatchRow> rows = new BatchPreparer(st.layout()).prepare(batch, now, floor);
    Set<Instant> windows = rows.stream().map(BatchRow::lower).collect(Collectors.toSet());
    for (int attempt = 1; ; attempt++) {
      ensurePartitions(table, windows, rows);
      try {
        List<WriteOutcome> outcomes =
            db.transaction(
                () -> "write a batch of " + rows.size() + " readings to table " + table.name(),
                c -> writeIn(c, st, rows, now));
        WriteResult result = WriteResult.allIn(Tier.HOT, outcomes);
        metrics.record(table.name(), result.stored(), result.duplicates());
        return result;
      } catch (Retry retry) {
        if (attempt > 1) {
          throw retry.failure(table.name());
        }
        switch (retry.cause) {
          case PARTITION_GONE -> partitions.forget(table);
          case EXCLUSION -> diagnose(st, retry, rows);
          case CONCURRENT_ROW -> {
            // the next attempt reads the concurrent writer's rows and decides them
          }
        }
      }
    }
  }

  /**
   * Ensures the batch's windows, refusing a batch below the table's floor before any partition is
   * created: the floor is read only when a window is new to this store (a steady writer pays
   * nothing), and the write transaction checks it again under the registry row's share lock.
   */
  private void ensurePartitions(TableDefinition table, Set<Instant> windows, List<BatchRow> rows) {
    if (!partitions.allKnown(table, windows)) {
      FloorCheck.refuseBelow(table.name(), partitions.recordedFloor(table), rows);
    }
    try {
      partitions.ensureWindows(table, windows);
    } catch (BelowFloorException e) {
      throw FloorCheck.forFirstReading(e, rows);
    }
  }

  private List<WriteOutcome> writeIn(Connection c, Statements st, List<BatchRow> rows, Instant now)
      throws SQLException {
    String table = st.layout().table().name();
    st.subjects().check(c, table, rows);
    LockedRead.Found found = st.lockedRead().run(c, rows);
    FloorCheck.refuseBelow(table, found.floor(), rows);
    OutcomeResolver resolver = new OutcomeResolver(table, now, found.stored());
    rows.forEach(resolver::accept);
    List<BatchRow> toInsert = resolver.toInsert();
    List<WriteOutcome> outcomes = resolver.outcomes();
    if (toInsert.isEmpty()) {
      return outcomes;
    }
    TableDefinition definition = st.layout().table();
    // On a grid that excludes overlap, two spans of one reading and version overlap only by sharing
    // the whole primary key, which the resolver has already decided: nothing is left to find.
    if (definition.timeModel() == TimeModel.INTERVAL && !definition.gridExcludesOverlap()) {
      SpanOverlaps.check(table, toInsert);
      Optional<BatchRow> overlap = st.crossing().check(c, toInsert, found.longestCrossingSpan());
      if (overlap.isPresent()) {
        throw Violation.SPANS_OVERLAP.refuse(
            table,
            overlap.get(),
            "overlaps a stored span of the same reading and version in another partition");
      }
    }
    insert(c, st, toInsert);
    return outcomes;
  }

  private static void insert(Connection c, Statements st, List<BatchRow> rows) throws SQLException {
    try {
      st.inserter().insertAndCommit(c, rows);
    } catch (SQLException e) {
      String state = e.getSQLState();
      if (SqlErrors.EXCLUSION_VIOLATION.equals(state)) {
        throw new Retry(e, Retry.Cause.EXCLUSION, constraintOf(e));
      }
      if (SqlErrors.UNIQUE_VIOLATION.equals(state)) {
        throw new Retry(e, Retry.Cause.CONCURRENT_ROW, null);
      }
      if (SqlErrors.CHECK_VIOLATION.equals(state)
          && String.valueOf(e.getMessage()).contains("no partition")) {
        throw new Retry(e, Retry.Cause.PARTITION_GONE, null);
      }
      throw e;
    }
  }

  /** Names the reading an exclusion constraint refused, or lets the caller retry once. */
  private void diagnose(Statements st, Retry retry, List<BatchRow> rows) {
    String table = st.layout().table().name();
    Optional<BatchRow> culprit =
        db.transaction(
            () -> "find the reading constraint " + retry.constraint.logicalName() + " refused",
            c -> st.diagnosis().culprit(c, retry.constraint, rows));
    if (culprit.isPresent()) {
      Violation violation =
          retry.constraint == ExclusionConstraint.SPANS_DO_NOT_OVERLAP
              ? Violation.SPANS_OVERLAP
              : Violation.SECOND_OPERATOR;
      throw violation.refuse(
          table,
          culprit.get(),
          violation == Violation.SPANS_OVERLAP
              ? "overlaps a stored span of the same reading and version"
              : "names operator "
                  + culprit.get().operator()
                  + ", but another operator delivers"
                  + " this reading");
    }
  }

  private static ExclusionConstraint constraintOf(SQLException e) {
    String physical =
        e instanceof PSQLException p && p.getServerErrorMessage() != null
            ? p.getServerErrorMessage().getConstraint()
            : null;
    return ExclusionConstraint.fromPhysicalName(physical)
        .orElse(ExclusionConstraint.SPANS_DO_NOT_OVERLAP);
  }

  /**
   * A failure worth one more attempt: a constraint to diagnose, a row a concurrent writer stored
   * after this batch read the stored versions (the next attempt reports it {@code DUPLICATE} or
   * refuses it), or a partition gone missing.
   */
  private static final class Retry extends RuntimeException {
    private static final long serialVersionUID = 1L;

    enum Cause {
      EXCLUSION,
      CONCURRENT_ROW,
      PARTITION_GONE
    }

    private final transient Cause cause;
    private final transient ExclusionConstraint constraint;

    Retry(SQLException cause, Cause why, ExclusionConstraint constraint) {
      super(cause.getMessage(), cause, false, false);
      this.cause = why;
      this.constraint = constraint;
    }

    MeterStoreException failure(String table) {
      SQLException sql = (SQLException) getCause();
      switch (cause) {
        case EXCLUSION:
          Violation v =
              constraint == ExclusionConstraint.SPANS_DO_NOT_OVERLAP
                  ? Violation.SPANS_OVERLAP
                  : Violation.SECOND_OPERATOR;
          return v.refuseBatch(table, sql);
        case CONCURRENT_ROW:
          return new MeterStoreException(
              org.meterstore.api.ErrorKind.STORAGE,
              true,
              "Cannot write to table "
                  + table
                  + ": concurrent writers stored readings of this batch twice while it was"
                  + " written; nothing was written, retry",
              sql);
        default:
          return SqlErrors.translate("write a batch to table " + table, sql);
      }
    }
  }
}
