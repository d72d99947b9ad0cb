package org.meterstore.cold.internal.write;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.meterstore.api.table.StandardColumn;

/**
 * One partition's rows, distinct MaLos and distinct channels in the block of rows being appended
 * (rows come sorted by MaLo, so a MaLo is counted when it changes): what a file of the partition
 * opened in this block is sized by ({@link BloomSizing}).
 */
final class BlockCounts {
  private long rows;
  private long malos;
  private String lastMalo;
  private int longestMalo;
  private final Set<Object> channels = new HashSet<>();
  private int longestChannel;

  void reset() {
    rows = 0;
    malos = 0;
    lastMalo = null;
    longestMalo = 0;
    channels.clear();
    longestChannel = 0;
  }

  void count(String malo, Object channel) {
    rows++;
    if (!malo.equals(lastMalo)) {
      malos++;
      lastMalo = malo;
      longestMalo = Math.max(longestMalo, malo.length());
    }
    if (channels.add(channel)) {
      longestChannel = Math.max(longestChannel, String.valueOf(channel).length());
    }
  }

  /**
   * The bloom filter sizes of a file opened in this block: the block's rows and distinct values
   * when {@code exact} (the file receives no other rows); otherwise the file may receive up to
   * {@code bound} rows before the open files end, and its distinct counts are estimated at the
   * block's rate (distinct values per row) over that many rows, at least the block's.
   */
  BloomSizing sizing(boolean exact, long bound) {
    long fileRows = exact ? rows : Math.max(rows, bound);
    return new BloomSizing(
        fileRows,
        Map.of(
            StandardColumn.MALO_ID.columnName(), scaled(malos, fileRows),
            StandardColumn.OBIS_CODE.columnName(), scaled(channels.size(), fileRows)),
        exact,
        Map.of(
            StandardColumn.MALO_ID.columnName(), longestMalo,
            StandardColumn.OBIS_CODE.columnName(), longestChannel));
  }

  private long scaled(long distinct, long fileRows) {
    if (fileRows <= rows) {
      return distinct;
    }
    return Math.min(fileRows, (long) Math.ceil((double) distinct * fileRows / rows));
  }
}
