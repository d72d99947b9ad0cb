package org.meterstore.hot.internal.schema;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.SqlIdentifiers;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.internal.sql.AdvisoryLocks;
import org.meterstore.hot.internal.sql.Database;
import org.meterstore.hot.internal.sql.SqlErrors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates MeterStore's schema and the declared tables' parents, idempotently: migrations first
 * (with {@code btree_gist}, which the exclusion constraints need), then one short DDL transaction
 * per table that is not registered yet. A registered table whose time model or archival step
 * differs from its definition is refused, since its partitions and archived windows were cut on the
 * recorded grid; so is one whose fixed resolution differs, since that decided its grid CHECK and
 * whether its partitions carry the span exclusion constraint, and rebuilding either would lock or
 * scan a table that is being written.
 */
public final class SchemaInstaller {
  /** Names of the schema's own relations, which no declared table may take. */
  static final Set<String> RESERVED =
      Set.of(
          "tables",
          "tables_pkey",
          "schema_history",
          "schema_history_pkey",
          "subjects",
          "subjects_pkey",
          "subjects_collection_year",
          "subjects_one_reference_per_year",
          "subject_holds",
          "subject_holds_pkey",
          "subject_suppressions",
          "subject_suppressions_pkey",
          "erasure_trail",
          "erasure_trail_pkey",
          "erasure_trail_at",
          "erasure_trail_id_seq");

  private static final Logger LOG = LoggerFactory.getLogger(SchemaInstaller.class);

  private final Database db;

  /** An installer working through {@code db}. */
  public SchemaInstaller(Database db) {
    this.db = db;
  }

  /** Migrates the schema and creates every table of {@code tables} that does not exist yet. */
  public void install(List<TableDefinition> tables, Instant now) {
    for (TableDefinition t : tables) {
      if (RESERVED.contains(t.name())) {
        throw MeterStoreException.invalid(
            "table name", t.name(), "reserved for MeterStore's registry in schema " + db.schema());
      }
    }
    db.transaction(
        () -> "migrate schema " + db.schema(),
        c -> {
          Migrations.apply(c, db.schema(), now);
          ensureBtreeGist(c);
          return null;
        });
    for (TableDefinition t : tables) {
      db.ddl(
          () -> "create table " + t.name() + " in schema " + db.schema(), c -> create(c, t, now));
    }
  }

  private Void create(Connection c, TableDefinition table, Instant now) throws SQLException {
    AdvisoryLocks.lockExclusive(
        c, AdvisoryLocks.PARTITION_DDL, AdvisoryLocks.key(db.schema(), table.name()));
    TableRegistry registry = new TableRegistry(c, db.schema());
    Optional<TableRegistry.Entry> existing = registry.find(table.name());
    if (existing.isPresent()) {
      requireSameGrid(table, existing.get());
      requireSameResolution(table, existing.get());
      return null;
    }
    try (Statement s = c.createStatement()) {
      s.execute(ParentTable.createStatement(db.schema(), table));
    }
    registry.insert(table, now);
    LOG.info("Created table {}.{} ({})", db.schema(), table.name(), table.timeModel());
    return null;
  }

  private void requireSameGrid(TableDefinition table, TableRegistry.Entry entry) {
    boolean sameModel = entry.timeModel().equals(table.timeModel().name());
    boolean sameStep = entry.archivalStep().equals(table.policy().archivalStep());
    if (!sameModel || !sameStep) {
      throw new MeterStoreException(
          ErrorKind.CONFIG,
          "Cannot create table "
              + table.name()
              + ": schema "
              + db.schema()
              + " already holds it as "
              + entry.timeModel()
              + " with archival_step "
              + entry.archivalStep()
              + ", but it is declared "
              + table.timeModel()
              + " with archival_step "
              + table.policy().archivalStep()
              + " (an operator has to migrate it)");
    }
  }

  private void requireSameResolution(TableDefinition table, TableRegistry.Entry entry) {
    String declared = table.resolution() == null ? null : table.resolution().iso();
    if (!java.util.Objects.equals(declared, entry.resolution())) {
      throw new MeterStoreException(
          ErrorKind.CONFIG,
          "Cannot create table "
              + table.name()
              + ": schema "
              + db.schema()
              + " already holds it "
              + shown(entry.resolution())
              + ", but it is declared "
              + shown(declared)
              + " (a resolution takes effect when a table is created: declare the recorded one,"
              + " or create a new table and move the readings)");
    }
  }

  private static String shown(String resolution) {
    return resolution == null ? "without a fixed resolution" : "with resolution " + resolution;
  }

  /** Creates {@code btree_gist} in MeterStore's schema unless the database already has it. */
  private void ensureBtreeGist(Connection c) throws SQLException {
    try (PreparedStatement s =
            c.prepareStatement("SELECT 1 FROM pg_extension WHERE extname = 'btree_gist'");
        ResultSet rs = s.executeQuery()) {
      if (rs.next()) {
        return;
      }
    }
    try (Statement s = c.createStatement()) {
      s.execute(
          "CREATE EXTENSION IF NOT EXISTS btree_gist SCHEMA " + SqlIdentifiers.quote(db.schema()));
      LOG.info("Created extension btree_gist in schema {}", db.schema());
    } catch (SQLException e) {
      throw extensionRefused(e);
    }
  }

  private MeterStoreException extensionRefused(SQLException e) {
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    String why =
        state.equals(SqlErrors.INSUFFICIENT_PRIVILEGE)
            ? "the database role may not create it; ask a DBA to run CREATE EXTENSION btree_gist"
                + " in this database (or to grant the role CREATE on the database)"
            : "the server cannot provide it (is the PostgreSQL contrib package installed?)";
    return new MeterStoreException(
        ErrorKind.CONFIG,
        "Cannot create extension btree_gist, which MeterStore's exclusion constraints need: "
            + why
            + " ("
            + SqlErrors.translate("create extension btree_gist", e).getMessage()
            + ")",
        e);
  }
}
