package org.meterstore.query.internal.cold.batch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.ColumnType;
import org.meterstore.api.table.ResolutionKey;
import org.meterstore.api.table.StandardColumn;
import org.meterstore.api.table.TableDefinition;

/**
 * The columns one cold scan reads, in vector order (ascending storage index), with their types and
 * the positions resolution needs. Vector {@code i} of every batch of the scan is storage column
 * {@link #storage}{@code [i]}.
 */
public final class ScanColumns {
  public final TableDefinition table;
  public final int width;
  public final int[] storage;
  public final String[] names;
  public final ColumnType[] types;
  private final int[] position;

  /** Vector positions of the columns the caller needs, resolution aside. */
  public final int[] unresolved;

  /** Vector positions of the resolution group minus {@code malo_id} and {@code from}. */
  public final int[] groupRest;

  public final int malo;
  public final int from;
  public final int version;
  public final int recordedAt;

  public ScanColumns(TableDefinition table, BitSet needed, boolean resolve) {
    this.table = table;
    List<ColumnSpec> all = table.columns();
    this.width = all.size();
    BitSet bits = (BitSet) needed.clone();
    if (resolve) {
      bits.or(resolutionColumns(table));
    }
    this.storage = bits.stream().toArray();
    this.names = new String[storage.length];
    this.types = new ColumnType[storage.length];
    this.position = new int[width];
    Arrays.fill(position, -1);
    for (int i = 0; i < storage.length; i++) {
      names[i] = all.get(storage[i]).name();
      types[i] = all.get(storage[i]).type();
      position[storage[i]] = i;
    }
    this.malo = position(index(table, StandardColumn.MALO_ID.columnName()));
    this.from = position(index(table, StandardColumn.FROM.columnName()));
    this.version = position(index(table, StandardColumn.VERSION.columnName()));
    this.recordedAt = position(index(table, StandardColumn.RECORDED_AT.columnName()));
    List<Integer> rest = new ArrayList<>();
    if (resolve) {
      for (String c : ResolutionKey.of(table).columns()) {
        int p = position(index(table, c));
        if (p != malo && p != from) {
          rest.add(p);
        }
      }
    }
    this.groupRest = rest.stream().mapToInt(Integer::intValue).toArray();
    this.unresolved = needed.stream().map(this::position).toArray();
  }

  /** The names of the columns the caller needs, resolution aside, in vector order. */
  public List<String> unresolvedNames() {
    List<String> out = new ArrayList<>();
    for (int p : unresolved) {
      out.add(names[p]);
    }
    return out;
  }

  /** The vector position of storage column {@code storageIndex}, or -1 when it is not read. */
  public int position(int storageIndex) {
    return storageIndex < 0 ? -1 : position[storageIndex];
  }

  /** The names of the read columns, in vector order. */
  public List<String> nameList() {
    return List.of(names);
  }

  /** The scale of the decimal at vector position {@code p}; -1 for a column that is no decimal. */
  public int scale(int p) {
    return switch (types[p]) {
      case DECIMAL_18_6 -> 6;
      case DECIMAL_20_0 -> 0;
      default -> -1;
    };
  }

  static BitSet resolutionColumns(TableDefinition table) {
    BitSet bits = new BitSet();
    ResolutionKey.of(table).readColumns().forEach(c -> bits.set(index(table, c)));
    return bits;
  }

  public static int index(TableDefinition table, String name) {
    List<ColumnSpec> columns = table.columns();
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }
}
