package org.meterstore.testing.workload;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;

/**
 * An independent, in-memory statement of DESIGN § 3.3: what a store must report for each written
 * reading and which version of each reading is current. Deliberately plain (maps and lists) so it
 * can be trusted as the oracle for the real stores.
 *
 * <p>Rules: the primary key is the merge key plus the version. A reading whose key is stored (or
 * earlier in the same batch) with the same value, unit and quality is a {@code DUPLICATE}; with
 * anything else it is an integrity violation and the whole batch is refused. Otherwise it is
 * stored: {@code INSERTED} when no other version of its merge key exists in its version scope,
 * {@code SUPERSEDED} when it now ranks first there (version, then {@code recorded_at}), {@code
 * SHADOWED} otherwise. Not thread-safe.
 */
public final class ReferenceModel {
  private final TableDefinition table;
  private final int[] keyColumns;
  private final int scopeColumn;
  private final Map<List<Object>, StoredReading> byPrimaryKey = new LinkedHashMap<>();
  private final Map<List<Object>, List<StoredReading>> byResolutionKey = new LinkedHashMap<>();
  private final List<StoredReading> foreign = new ArrayList<>();

  /** A model of one table. */
  public ReferenceModel(TableDefinition table) {
    this.table = table;
    List<String> names = table.columns().stream().map(ColumnSpec::name).toList();
    this.keyColumns = table.mergeKey().stream().mapToInt(names::indexOf).toArray();
    this.scopeColumn = names.indexOf("version_scope");
  }

  /**
   * Writes one batch accepted at {@code now}: all or nothing.
   *
   * @return one outcome per reading, in order
   * @throws MeterStoreException {@code INTEGRITY_VIOLATION} when a value is restated under a stored
   *     version; the model is then unchanged
   */
  public List<WriteOutcome> write(List<Reading> batch, Instant now) {
    Map<List<Object>, Entry> staged = new LinkedHashMap<>();
    List<Entry> entries = new ArrayList<>(batch.size());
    for (Reading r : batch) {
      Entry e = entry(StoredReading.accept(r, now));
      Entry stagedEarlier = staged.get(e.primaryKey);
      StoredReading existing =
          stagedEarlier != null ? stagedEarlier.stored : byPrimaryKey.get(e.primaryKey);
      if (existing != null && !sameContent(existing.reading(), r)) {
        throw new MeterStoreException(
            ErrorKind.INTEGRITY_VIOLATION,
            "Cannot write to " + table.name() + ": value restated under an existing version " + r);
      }
      entries.add(existing == null ? e : null);
      if (existing == null) {
        staged.put(e.primaryKey, e);
      }
    }
    for (Entry e : staged.values()) {
      byPrimaryKey.put(e.primaryKey, e.stored);
      byResolutionKey.computeIfAbsent(e.resolutionKey, k -> new ArrayList<>()).add(e.stored);
    }
    List<WriteOutcome> outcomes = new ArrayList<>(batch.size());
    for (Entry e : entries) {
      outcomes.add(e == null ? WriteOutcome.DUPLICATE : rank(e));
    }
    return outcomes;
  }

  private WriteOutcome rank(Entry e) {
    List<StoredReading> rivals = byResolutionKey.get(e.resolutionKey);
    if (rivals.size() == 1) {
      return WriteOutcome.INSERTED;
    }
    return winner(rivals) == e.stored ? WriteOutcome.SUPERSEDED : WriteOutcome.SHADOWED;
  }

  /**
   * Stores {@code stored} as a foreign tool wrote it to the cold tier, without MeterStore's write
   * rules: its primary key may equal a stored version's (the tie {@code recorded_at} breaks).
   */
  public void foreign(StoredReading stored) {
    Entry e = entry(stored);
    foreign.add(stored);
    byResolutionKey.computeIfAbsent(e.resolutionKey, k -> new ArrayList<>()).add(stored);
  }

  /** Every stored version, in write order (foreign rows last). */
  public List<StoredReading> versions() {
    List<StoredReading> all = new ArrayList<>(byPrimaryKey.values());
    all.addAll(foreign);
    return all;
  }

  /** The current reading of every merge key and version scope. */
  public List<StoredReading> current() {
    return byResolutionKey.values().stream().map(ReferenceModel::winner).toList();
  }

  /**
   * The current reading of every merge key and version scope among the versions {@code visible}
   * accepts: what a read restricted to them (a snapshot, a version ceiling, a known-at instant, one
   * tier) must return.
   */
  public List<StoredReading> current(java.util.function.Predicate<StoredReading> visible) {
    List<StoredReading> result = new ArrayList<>();
    for (List<StoredReading> versions : byResolutionKey.values()) {
      versions.stream()
          .filter(visible)
          .max(
              Comparator.comparing(StoredReading::version).thenComparing(StoredReading::recordedAt))
          .ifPresent(result::add);
    }
    return result;
  }

  private static StoredReading winner(List<StoredReading> versions) {
    return versions.stream()
        .max(Comparator.comparing(StoredReading::version).thenComparing(StoredReading::recordedAt))
        .orElseThrow();
  }

  private Entry entry(StoredReading s) {
    Object[] row = StoredRow.of(table, s);
    List<Object> mergeKey = new ArrayList<>(keyColumns.length + 1);
    for (int i : keyColumns) {
      mergeKey.add(row[i]);
    }
    List<Object> primaryKey = new ArrayList<>(mergeKey);
    primaryKey.add(s.version());
    List<Object> resolutionKey = new ArrayList<>(mergeKey);
    resolutionKey.add(row[scopeColumn]);
    return new Entry(s, List.copyOf(primaryKey), List.copyOf(resolutionKey));
  }

  private static boolean sameContent(Reading a, Reading b) {
    return a.value().compareTo(b.value()) == 0
        && a.unit() == b.unit()
        && a.quality() == b.quality();
  }

  @Override
  public String toString() {
    return "ReferenceModel[" + table.name() + ", " + byPrimaryKey.size() + " versions]";
  }

  private record Entry(StoredReading stored, List<Object> primaryKey, List<Object> resolutionKey) {}
}
