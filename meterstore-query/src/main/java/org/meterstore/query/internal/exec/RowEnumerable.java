package org.meterstore.query.internal.exec;

import java.util.function.Supplier;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.meterstore.query.internal.state.QueryMetrics;

/**
 * Rows of one tier scan for Calcite: the scan opens on the first {@code moveNext} (not when the
 * statement is planned) and is closed when Calcite closes the enumerator; the time between is
 * recorded as {@code meterstore.query.scan_duration}.
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

  public RowEnumerable(QueryMetrics metrics, String table, String tier, Supplier<Cursor> opener) {
    this.metrics = metrics;
    this.table = table;
    this.tier = tier;
    this.opener = opener;
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

      @Override
      public Object[] current() {
        return current;
      }

      @Override
      public boolean moveNext() {
        if (done) {
          return false;
        }
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
