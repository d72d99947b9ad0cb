package org.meterstore.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.meterstore.MeterCatalog;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.reading.Version;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.snapshot.SnapshotInfo;
import org.meterstore.testing.workload.ReferenceModel;
import org.meterstore.testing.workload.Rows;

/**
 * The queries of one check, each compared with the {@link ReferenceModel} restricted to what the
 * query may see: counts, sums to the last decimal and, for the current state, every row. Several
 * relations are read by one statement (a {@code UNION ALL} of labelled totals) so that a check
 * plans few statements.
 */
final class ModelQueries implements AutoCloseable {
  private final MeterCatalog catalog;
  private final TableDefinition table;
  private final ReferenceModel model;
  private final Connection connection;
  private final String name;
  private final Map<String, String> pending = new LinkedHashMap<>();
  private final List<String> pendingSql = new ArrayList<>();
  private final Map<String, Expected> pendingRows = new LinkedHashMap<>();

  ModelQueries(MeterCatalog catalog, TableDefinition table, ReferenceModel model)
      throws SQLException {
    this.catalog = catalog;
    this.table = table;
    this.model = model;
    this.connection = catalog.connection();
    this.name = table.name();
  }

  /** The resolved relation and the audit trail: count and sum. */
  void expectTotals() {
    expect("current", q(name), model.current());
    expect("versions", v(name), model.versions());
  }

  /**
   * Reads every expected total in one statement and compares them with the model's; a relation
   * whose total differs is read row by row, and the failure names the rows that differ.
   */
  void verify(String what) throws SQLException {
    String sql = String.join(" UNION ALL ", pendingSql);
    Map<String, String> expected = new LinkedHashMap<>(pending);
    Map<String, String> got = totals(sql);
    StringBuilder diff = new StringBuilder();
    for (String label : expected.keySet()) {
      if (!expected.get(label).equals(got.get(label))) {
        diff.append(diffRows(label));
      }
    }
    pending.clear();
    pendingSql.clear();
    pendingRows.clear();
    assertThat(got).as(what + diff).isEqualTo(expected);
  }

  private String diffRows(String label) throws SQLException {
    List<String> want = Rows.of(table, pendingRows.get(label).readings());
    List<String> have;
    try (Statement s = connection.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT " + Rows.COLUMNS + " FROM " + pendingRows.get(label).relation())) {
      have = Rows.read(rs);
    }
    List<String> missing = new ArrayList<>(want);
    have.forEach(missing::remove);
    List<String> extra = new ArrayList<>(have);
    want.forEach(extra::remove);
    return "\n" + label + ": missing " + head(missing) + "; unexpected " + head(extra);
  }

  private static List<String> head(List<String> rows) {
    return rows.subList(0, Math.min(5, rows.size()));
  }

  private void expect(String label, String relation, List<StoredReading> readings) {
    pending.put(label, totals(readings));
    pendingSql.add(label(label, relation));
    pendingRows.put(label, new Expected(relation, readings));
  }

  private record Expected(String relation, List<StoredReading> readings) {}

  /** {@code system.tables}: the table is healthy and no hot row lies below W. */
  void assertHealthy(Instant now) throws SQLException {
    catalog.refreshSystemTables(now);
    try (PreparedStatement s =
        connection.prepareStatement(
            "SELECT invariant_violations, healthy FROM \"system\".\"tables\" WHERE \"table\" = ?")) {
      s.setString(1, name);
      try (ResultSet rs = s.executeQuery()) {
        assertThat(rs.next()).as("a system.tables row").isTrue();
        assertThat(rs.getLong(1)).as("invariant_violations").isZero();
        assertThat(rs.getBoolean(2)).as("healthy").isTrue();
      }
    }
  }

  /** Every current row, every column but provenance and source kind. */
  void assertRows() throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT " + Rows.COLUMNS + " FROM " + q(name))) {
      assertThat(Rows.read(rs)).as("current rows").isEqualTo(Rows.of(table, model.current()));
    }
  }

  /** Per balancing day and commodity: the aggregate both tiers compute inside their scans. */
  void assertGrouped() throws SQLException {
    Map<String, BigDecimal[]> want = new TreeMap<>();
    for (StoredReading r : model.current()) {
      String key = r.balancingDay() + "|" + r.reading().commodity().name();
      BigDecimal[] acc = want.computeIfAbsent(key, k -> new BigDecimal[] {ZERO, ZERO});
      acc[0] = acc[0].add(r.reading().value());
      acc[1] = acc[1].add(BigDecimal.ONE);
    }
    Map<String, String> expected = new TreeMap<>();
    want.forEach((k, v) -> expected.put(k, Rows.text(v[0]) + "|" + v[1]));
    Map<String, String> got = new TreeMap<>();
    String sql =
        "SELECT balancing_day, sparte, SUM(\"value\"), COUNT(*) FROM "
            + q(name)
            + " GROUP BY balancing_day, sparte";
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        got.put(
            rs.getDate(1).toLocalDate() + "|" + rs.getString(2),
            Rows.text(rs.getBigDecimal(3)) + "|" + rs.getLong(4));
      }
    }
    assertThat(got).as("sum per balancing day").isEqualTo(expected);
  }

  /** A random {@code from} range around W (bound parameters), split at W by the engine. */
  void assertRange(Instant w, Random random) throws SQLException {
    Instant a = w.minus(Duration.ofMinutes(15L * random.nextInt(200)));
    Instant b = w.plus(Duration.ofMinutes(15L * random.nextInt(200)));
    Predicate<StoredReading> in =
        r -> !r.reading().from().isBefore(a) && r.reading().from().isBefore(b);
    String sql =
        "SELECT 'range', COUNT(*), SUM(\"value\") FROM "
            + q(name)
            + " WHERE \"from\" >= ? AND \"from\" < ?";
    try (PreparedStatement s = connection.prepareStatement(sql)) {
      s.setTimestamp(1, Timestamp.from(a));
      s.setTimestamp(2, Timestamp.from(b));
      try (ResultSet rs = s.executeQuery()) {
        assertThat(read(rs))
            .as("[%s, %s) around W %s", a, b, w)
            .isEqualTo(Map.of("range", totals(model.current(in))));
      }
    }
  }

  /** A version ceiling, a known-at instant, the cold tier alone and the hot tier alone. */
  void expectModes(Instant w, Random random, Instant first, Instant now) throws SQLException {
    List<StoredReading> versions = model.versions();
    Version ceiling =
        versions.isEmpty()
            ? Version.operator("10000000000000")
            : versions.get(random.nextInt(versions.size())).version();
    Instant knownAt =
        first.plus(
            Duration.ofMinutes(random.nextInt((int) Duration.between(first, now).toMinutes() + 1)));
    expect(
        "ceiling " + ceiling,
        fn("current_state", "'" + name + "', '" + ceiling + "'"),
        model.current(r -> r.version().compareTo(ceiling) <= 0));
    expect(
        "known_at " + knownAt,
        fn("known_at", "'" + name + "', '" + knownAt + "'"),
        model.current(r -> !r.recordedAt().isAfter(knownAt)));
    expect(
        "historical",
        fn("historical", "'" + name + "'"),
        model.current(r -> r.reading().from().isBefore(w)));
    expect(
        "operational",
        fn("operational", "'" + name + "'"),
        model.current(r -> !r.reading().from().isBefore(w)));
    expect(
        "versions_known_at",
        fn("known_at", "'" + name + "_versions', '" + knownAt + "'"),
        versions.stream().filter(r -> !r.recordedAt().isAfter(knownAt)).toList());
  }

  /**
   * Up to three live snapshots and every tag, as of each, and as of the commit time of the newest
   * snapshot whose commit time no other shares: the model restricted to the readings below that
   * snapshot's W that had arrived when it was made. A live snapshot whose W is unknown (a foreign
   * commit whose ancestors expiry removed) and an expired snapshot are errors naming them, never
   * another snapshot's answer.
   */
  void expectSnapshots(
      Map<Long, SnapshotInfo> live,
      Map<Long, Instant> seenAt,
      Map<String, Long> tags,
      Random random)
      throws SQLException {
    List<Long> ids = new ArrayList<>();
    List<Long> broken = new ArrayList<>();
    live.values().forEach(x -> (x.watermark() == null ? broken : ids).add(x.snapshotId()));
    java.util.Collections.shuffle(ids, random);
    for (Long id : ids.subList(0, Math.min(3, ids.size()))) {
      SnapshotInfo snapshot = live.get(id);
      expect(
          "s" + id,
          fn("as_of_snapshot", "'" + name + "', " + id),
          asOf(snapshot, seenAt.get(id), false));
      expect(
          "v" + id,
          fn("as_of_snapshot", "'" + name + "_versions', " + id),
          asOf(snapshot, seenAt.get(id), true));
    }
    live.values().stream()
        .filter(x -> x.watermark() != null)
        .filter(
            x ->
                live.values().stream().filter(y -> y.committedAt().equals(x.committedAt())).count()
                    == 1)
        .reduce((a, b) -> b)
        .ifPresent(
            latest ->
                expect(
                    "t" + latest.snapshotId(),
                    fn("as_of_time", "'" + name + "', '" + latest.committedAt() + "'"),
                    asOf(latest, seenAt.get(latest.snapshotId()), false)));
    tags.forEach(
        (tag, id) ->
            expect(
                tag,
                fn("as_of_tag", "'" + name + "', '" + tag + "'"),
                asOf(live.get(id), seenAt.get(id), false)));
    for (Long id : broken) {
      // a foreign snapshot whose ancestry expiry broke: its W is unknown, so no answer, never a
      // guess
      assertThatThrownBy(() -> totals(label("x", fn("as_of_snapshot", "'" + name + "', " + id))))
          .as("as of a snapshot without a known W")
          .isInstanceOf(SQLException.class)
          .hasMessageContaining(Long.toString(id))
          .hasMessageContaining("INVARIANT_VIOLATED");
    }
    seenAt.keySet().stream()
        .filter(id -> !live.containsKey(id))
        .findFirst()
        .ifPresent(
            expired ->
                assertThatThrownBy(
                        () ->
                            totals(label("x", fn("as_of_snapshot", "'" + name + "', " + expired))))
                    .as("an expired snapshot")
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining(Long.toString(expired)));
  }

  private List<StoredReading> asOf(SnapshotInfo s, Instant seenAt, boolean allVersions) {
    assertThat(s).as("a tagged or live snapshot").isNotNull();
    Instant w = s.watermark() == null ? Instant.EPOCH : s.watermark();
    Predicate<StoredReading> archived =
        r -> r.reading().from().isBefore(w) && !r.recordedAt().isAfter(seenAt);
    return allVersions
        ? model.versions().stream().filter(archived).toList()
        : model.current(archived);
  }

  private static final BigDecimal ZERO = BigDecimal.ZERO;

  private static String totals(List<StoredReading> readings) {
    BigDecimal sum = readings.stream().map(r -> r.reading().value()).reduce(ZERO, BigDecimal::add);
    return readings.size() + "|" + Rows.text(sum);
  }

  private Map<String, String> totals(String sql) throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      return read(rs);
    }
  }

  private static Map<String, String> read(ResultSet rs) throws SQLException {
    Map<String, String> out = new LinkedHashMap<>();
    while (rs.next()) {
      BigDecimal sum = rs.getBigDecimal(3);
      out.put(rs.getString(1).trim(), rs.getLong(2) + "|" + Rows.text(sum == null ? ZERO : sum));
    }
    return out;
  }

  private static String label(String label, String relation) {
    return "SELECT '" + label + "', COUNT(*), SUM(\"value\") FROM " + relation;
  }

  private static String fn(String function, String args) {
    return "TABLE(" + function + "(" + args + "))";
  }

  private static String q(String table) {
    return "\"" + table + "\"";
  }

  private static String v(String table) {
    return "\"" + table + "_versions\"";
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
