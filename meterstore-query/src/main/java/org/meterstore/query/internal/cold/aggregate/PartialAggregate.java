package org.meterstore.query.internal.cold.aggregate;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.meterstore.api.table.ColumnType;
import org.meterstore.cold.scan.ColumnBatch;
import org.meterstore.cold.scan.IntVector;
import org.meterstore.cold.scan.LongVector;
import org.meterstore.cold.scan.TextDictionary;
import org.meterstore.cold.scan.TextVector;
import org.meterstore.query.internal.cold.aggregate.ColdAggregation.Function;
import org.meterstore.query.internal.cold.batch.BatchSink;
import org.meterstore.query.internal.cold.batch.ScanColumns;

/**
 * A {@link ColdAggregation} computed over batches: rows are grouped by their encoded keys in a
 * local {@link GroupTable} (text by dictionary id) for as long as the text keys' dictionaries stay
 * the same (one row group); then each local group's key becomes internal values once and is merged
 * into the global groups. Partials of several workers {@link #merge} into one. Not thread-safe.
 */
public final class PartialAggregate implements BatchSink {
  private final GroupKey[] keys;
  private final int[] callColumn;
  private final ColumnType[] callType;
  private final int[] callScale;
  private final CallState[] local;
  private final CallState[] global;
  private final GroupTable table;
  private final TextDictionary[] dictionaries;
  private final Map<List<Object>, Integer> globalIds = new HashMap<>();
  private final List<List<Object>> globalKeys = new ArrayList<>();
  private final long[] key;
  private int[] groups = new int[0];
  private final long[] previous;

  public PartialAggregate(ColdAggregation aggregation, ScanColumns columns) {
    List<ColdAggregation.Key> ks = aggregation.keys();
    keys = new GroupKey[ks.size()];
    for (int k = 0; k < keys.length; k++) {
      int p = columns.position(ks.get(k).column());
      keys[k] =
          new GroupKey(
              p, columns.types[p], ks.get(k).function(), ks.get(k).unit(), columns.scale(p));
    }
    List<ColdAggregation.Call> cs = aggregation.calls();
    int n = cs.size();
    callColumn = new int[n];
    callType = new ColumnType[n];
    callScale = new int[n];
    local = new CallState[n];
    global = new CallState[n];
    for (int c = 0; c < n; c++) {
      int p = columns.position(cs.get(c).column());
      callColumn[c] = p;
      callType[c] = p < 0 ? null : columns.types[p];
      callScale[c] = p < 0 ? 0 : columns.scale(p);
      local[c] = new CallState(cs.get(c).function());
      global[c] = new CallState(cs.get(c).function());
    }
    table = new GroupTable(keys.length + 1);
    key = new long[keys.length + 1];
    previous = new long[keys.length + 1];
    dictionaries = new TextDictionary[keys.length];
  }

  @Override
  public void accept(ColumnBatch batch, int[] sel, int n) {
    for (int k = 0; k < keys.length; k++) {
      if (keys[k].isText()) {
        TextDictionary d = ((TextVector) batch.column(keys[k].position())).dictionary();
        if (d != dictionaries[k]) {
          flush();
          dictionaries[k] = d;
        }
      }
    }
    if (groups.length < n) {
      groups = new int[Math.max(n, 1024)];
    }
    for (GroupKey k : keys) {
      k.bind(batch);
    }
    int last = -1;
    for (int i = 0; i < n; i++) {
      int row = sel[i];
      long flags = 0;
      for (int k = 0; k < keys.length; k++) {
        flags |= keys[k].encode(row, key, k) << (2 * k);
      }
      key[keys.length] = flags;
      if (last < 0 || !Arrays.equals(key, previous)) {
        last = table.find(key);
        System.arraycopy(key, 0, previous, 0, key.length);
      }
      groups[i] = last;
    }
    for (CallState s : local) {
      s.ensure(table.size());
    }
    for (int c = 0; c < local.length; c++) {
      update(c, batch, sel, n);
    }
  }

  private void update(int c, ColumnBatch batch, int[] sel, int n) {
    CallState s = local[c];
    int p = callColumn[c];
    if (p < 0) {
      for (int i = 0; i < n; i++) {
        s.count[groups[i]]++;
      }
      return;
    }
    var v = batch.column(p);
    if (s.function == Function.COUNT) {
      for (int i = 0; i < n; i++) {
        if (!v.isNull(sel[i])) {
          s.count[groups[i]]++;
        }
      }
    } else if (v instanceof IntVector iv) {
      int[] values = iv.values();
      for (int i = 0; i < n; i++) {
        if (!iv.isNull(sel[i])) {
          s.add(groups[i], values[sel[i]]);
        }
      }
    } else {
      LongVector lv = (LongVector) v;
      long[] values = lv.values();
      BigDecimal[] big = lv.overflow();
      boolean nulls = lv.mayHaveNulls();
      for (int i = 0; i < n; i++) {
        int row = sel[i];
        if (nulls && lv.isNull(row)) {
          continue;
        }
        if (big != null && big[row] != null) {
          s.addBig(groups[i], new BigDecimal(big[row].unscaledValue()));
        } else {
          s.add(groups[i], values[row]);
        }
      }
    }
  }

  /** Moves the local groups into the global ones and empties the local table. */
  private void flush() {
    int size = table.size();
    for (int g = 0; g < size; g++) {
      long flags = table.key(g, keys.length);
      Object[] values = new Object[keys.length];
      for (int k = 0; k < keys.length; k++) {
        values[k] = keys[k].value(table.key(g, k), flags >>> (2 * k), dictionaries[k]);
      }
      int target = globalId(Arrays.asList(values));
      for (int c = 0; c < local.length; c++) {
        global[c].merge(target, local[c], g);
      }
    }
    for (CallState s : local) {
      s.reset(size);
    }
    for (GroupKey k : keys) {
      k.clear();
    }
    table.clear();
  }

  private int globalId(List<Object> values) {
    Integer id = globalIds.get(values);
    if (id == null) {
      id = globalKeys.size();
      globalIds.put(values, id);
      globalKeys.add(values);
      for (CallState s : global) {
        s.ensure(id + 1);
      }
    }
    return id;
  }

  /** Adds {@code other}'s groups into this one's; both must aggregate the same way. */
  public void merge(PartialAggregate other) {
    flush();
    other.flush();
    for (int g = 0; g < other.globalKeys.size(); g++) {
      int target = globalId(other.globalKeys.get(g));
      for (int c = 0; c < global.length; c++) {
        global[c].merge(target, other.global[c], g);
      }
    }
  }

  /** The groups as output rows (keys, then calls); one row with no keys even over no input. */
  public List<Object[]> result() {
    flush();
    if (keys.length == 0 && globalKeys.isEmpty()) {
      globalId(List.of());
    }
    List<Object[]> rows = new ArrayList<>(globalKeys.size());
    for (int g = 0; g < globalKeys.size(); g++) {
      Object[] row = new Object[keys.length + global.length];
      List<Object> k = globalKeys.get(g);
      for (int i = 0; i < keys.length; i++) {
        row[i] = k.get(i);
      }
      for (int c = 0; c < global.length; c++) {
        row[keys.length + c] = CallResult.of(global[c], g, callType[c], callScale[c]);
      }
      rows.add(row);
    }
    return rows;
  }
}
