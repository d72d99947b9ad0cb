package org.meterstore.query.internal.exec;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.query.internal.state.QueryMetrics;

/**
 * Rows of one tier scan for Calcite: the scan opens on the first {@code moveNext} (not when the
 * statement is planned) and is closed when Calcite closes the enumerator; the time between is
 * recorded as {@code meterstore.query.scan_duration}. The scan honours its statement's {@code
 * cancel()} and query timeout (Calcite's cancel flag and timeout in the {@link DataContext}): it
 * stops between rows with a {@code QUERY} error instead of reading on.
 */
public final class RowEnumerable extends AbstractEnumerable<Object[]> {
  /** An open scan: {@link #next()} returns null at the end. */
  public interface Cursor extends AutoCloseable {
    Object[] next();

    @Override
    void close();
  }

  private final QueryMetrics metrics;
  private final String table;
  private final String tier;
  private final Supplier<Cursor> opener;
  private final AtomicBoolean cancelFlag;
  private final long timeoutMillis;
  private final long deadline;

  /** Checks the clock once in this many rows. */
  private static final int CLOCK_EVERY = 1024;

  /**
   * A scan that {@code opener} opens, for the statement whose variables {@code root} holds (its
   * cancel flag and timeout; the timeout runs from now, when the statement executes).
   */
  public RowEnumerable(
      QueryMetrics metrics, String table, String tier, DataContext root, Supplier<Cursor> opener) {
    this.metrics = metrics;
    this.table = table;
    this.tier = tier;
    this.opener = opener;
    this.cancelFlag = root == null ? null : DataContext.Variable.CANCEL_FLAG.get(root);
    Object timeout = root == null ? null : root.get(DataContext.Variable.TIMEOUT.camelName);
    this.timeoutMillis = timeout instanceof Number n ? n.longValue() : 0L;
    this.deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
  }

  /** Throws {@code QUERY} when the statement was cancelled or ran past its timeout. */
  private void checkGoing(long row) {
    if (cancelFlag != null && cancelFlag.get()) {
      throw new MeterStoreException(ErrorKind.QUERY, "The statement was cancelled");
    }
    if (timeoutMillis > 0 && row % CLOCK_EVERY == 0 && System.nanoTime() - deadline > 0) {
      throw new MeterStoreException(
          ErrorKind.QUERY,
          "The statement ran longer than its timeout of "
              + timeoutMillis / 1000
              + " s and was cancelled");
    }
  }

  public static AbstractEnumerable<Object[]> empty() {
    return new AbstractEnumerable<>() {
      @Override
      public Enumerator<Object[]> enumerator() {
        return Linq4j.emptyEnumerator();
      }
    };
  }

  @Override
  public Enumerator<Object[]> enumerator() {
    return new Enumerator<>() {
      private Cursor cursor;
      private Object[] current;
      private long started;
      private boolean done;
      private long rows;

      @Override
      public Object[] current() {
        return current;
      }

      @Override
      public boolean moveNext() {
        if (done) {
          return false;
        }
        checkGoing(rows++);
        if (cursor == null) {
          started = System.nanoTime();
          cursor = opener.get();
        }
        current = cursor.next();
        if (current == null) {
          finish();
        }
        return current != null;
      }

      @Override
      public void reset() {
        throw new UnsupportedOperationException("a tier scan cannot be reset");
      }

      @Override
      public void close() {
        finish();
      }

      private void finish() {
        if (cursor != null && !done) {
          cursor.close();
          metrics.scanned(table, tier, System.nanoTime() - started);
        }
        done = true;
      }
    };
  }
}
