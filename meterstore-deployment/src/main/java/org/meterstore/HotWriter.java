package org.meterstore;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.HotStore;

/**
 * A writer for steady ingest into one table's hot tier (DESIGN § 4): it read the watermark W once,
 * when {@link MeterTable#hotWriter} made it, and refuses every reading below that W instead of
 * routing it. Late corrections go through {@link MeterTable#append}.
 *
 * <p>When archival moves W past readings this writer still accepts, the hot tier refuses them
 * (their window is archived: below the hot floor or detached) with the same kind of error; take a
 * new writer or use {@code append}. Thread-safe; holds no resource.
 */
public final class HotWriter {
  private final HotStore hot;
  private final TableDefinition table;
  private final Instant watermark;

  HotWriter(HotStore hot, TableDefinition table, Instant watermark) {
    this.hot = hot;
    this.table = table;
    this.watermark = watermark;
  }

  /** The table this writer writes to. */
  public TableDefinition table() {
    return table;
  }

  /**
   * The W read when this writer was made (UTC): readings with {@code from} below it are refused.
   */
  public Instant watermark() {
    return watermark;
  }

  /**
   * Writes {@code batch} to the hot tier as one transaction; every reading is reported {@code HOT}.
   * Outcomes and refusals are those of {@link MeterTable#append}, plus one: a reading whose {@code
   * from} lies below {@link #watermark()}.
   *
   * @param now the write instant: {@code recorded_at} of every stored row (UTC)
   * @throws MeterStoreException {@code INVALID_INPUT} naming {@code append} when a reading lies
   *     below W: the hot tier's {@link org.meterstore.hot.write.BelowFloorException}, with W as the
   *     write's floor (nothing written); otherwise as {@code append}
   */
  public WriteResult write(List<Reading> batch, Instant now) {
    Objects.requireNonNull(batch, "batch");
    if (now == null) {
      throw MeterStoreException.invalid("now", null, "required");
    }
    return hot.write(table, batch, now, watermark);
  }
}
