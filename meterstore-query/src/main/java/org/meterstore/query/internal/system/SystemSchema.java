package org.meterstore.query.internal.system;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.sql.type.SqlTypeName;

/** The {@code system} schema over the last {@link SystemSnapshot}; columns per DESIGN § 7. */
public final class SystemSchema extends AbstractSchema {
  private final Supplier<SystemSnapshot> snapshot;

  public SystemSchema(Supplier<SystemSnapshot> snapshot) {
    this.snapshot = snapshot;
  }

  @Override
  protected Map<String, Table> getTableMap() {
    Map<String, Table> tables = new LinkedHashMap<>();
    tables.put(
        "tables",
        new SystemRelation("tables", SystemSchema::tablesType, snapshot, SystemSnapshot::tables));
    tables.put(
        "config",
        new SystemRelation("config", SystemSchema::settingsType, snapshot, SystemSnapshot::config));
    tables.put(
        "resolution",
        new SystemRelation(
            "resolution", SystemSchema::settingsType, snapshot, SystemSnapshot::resolution));
    tables.put(
        "snapshots",
        new SystemRelation(
            "snapshots", SystemSchema::snapshotsType, snapshot, SystemSnapshot::snapshots));
    tables.put(
        "seam", new SystemRelation("seam", SystemSchema::seamType, snapshot, SystemSnapshot::seam));
    tables.put(
        "tags", new SystemRelation("tags", SystemSchema::tagsType, snapshot, SystemSnapshot::tags));
    tables.put(
        "pins", new SystemRelation("pins", SystemSchema::pinsType, snapshot, SystemSnapshot::pins));
    tables.put(
        "erasures",
        new SystemRelation(
            "erasures", SystemSchema::erasuresType, snapshot, SystemSnapshot::erasures));
    return tables;
  }

  private static RelDataType tablesType(RelDataTypeFactory f) {
    return f.builder()
        .add("table", SqlTypeName.VARCHAR)
        .add("watermark", SqlTypeName.TIMESTAMP, 3)
        .nullable(true)
        .add("watermark_lag_seconds", SqlTypeName.BIGINT)
        .nullable(true)
        .add("hot_partitions", SqlTypeName.INTEGER)
        .add("partitions_ahead", SqlTypeName.INTEGER)
        .add("invariant_violations", SqlTypeName.BIGINT)
        .add("healthy", SqlTypeName.BOOLEAN)
        .add("committed_watermark", SqlTypeName.TIMESTAMP, 3)
        .nullable(true)
        .add("state_pins", SqlTypeName.INTEGER)
        .nullable(false)
        .build();
  }

  /** The live state pins, each with the federated query for the state it pins. */
  private static RelDataType pinsType(RelDataTypeFactory f) {
    return f.builder()
        .add("table", SqlTypeName.VARCHAR)
        .add("id", SqlTypeName.BIGINT)
        .add("holder", SqlTypeName.VARCHAR)
        .add("snapshot_id", SqlTypeName.BIGINT)
        .nullable(true)
        .add("watermark", SqlTypeName.TIMESTAMP, 3)
        .nullable(false)
        .add("created_at", SqlTypeName.TIMESTAMP, 3)
        .add("expires_at", SqlTypeName.TIMESTAMP, 3)
        .add("spark_sql", SqlTypeName.VARCHAR)
        .add("trino_sql", SqlTypeName.VARCHAR)
        .build();
  }

  private static RelDataType settingsType(RelDataTypeFactory f) {
    return f.builder()
        .add("table", SqlTypeName.VARCHAR)
        .add("setting", SqlTypeName.VARCHAR)
        .add("value", SqlTypeName.VARCHAR)
        .build();
  }

  private static RelDataType seamType(RelDataTypeFactory f) {
    return f.builder()
        .add("table", SqlTypeName.VARCHAR)
        .add("snapshot_id", SqlTypeName.BIGINT)
        .nullable(true)
        .add("watermark", SqlTypeName.TIMESTAMP, 3)
        .nullable(true)
        .add("cold_table", SqlTypeName.VARCHAR)
        .add("hot_table", SqlTypeName.VARCHAR)
        .add("spark_sql", SqlTypeName.VARCHAR)
        .nullable(true)
        .add("trino_sql", SqlTypeName.VARCHAR)
        .nullable(true)
        .add("servable", SqlTypeName.BOOLEAN)
        .add("unservable_reason", SqlTypeName.VARCHAR)
        .nullable(true)
        .build();
  }

  private static RelDataType snapshotsType(RelDataTypeFactory f) {
    return f.builder()
        .add("table", SqlTypeName.VARCHAR)
        .add("snapshot_id", SqlTypeName.BIGINT)
        .add("sequence_number", SqlTypeName.BIGINT)
        .add("committed_at", SqlTypeName.TIMESTAMP, 3)
        .add("watermark", SqlTypeName.TIMESTAMP, 3)
        .nullable(true)
        .add("rows", SqlTypeName.BIGINT)
        .add("tags", SqlTypeName.VARCHAR)
        .add("stamped_at", SqlTypeName.TIMESTAMP, 3)
        .nullable(true)
        .build();
  }

  private static RelDataType tagsType(RelDataTypeFactory f) {
    return f.builder()
        .add("table", SqlTypeName.VARCHAR)
        .add("tag", SqlTypeName.VARCHAR)
        .add("snapshot_id", SqlTypeName.BIGINT)
        .add("sequence_number", SqlTypeName.BIGINT)
        .add("watermark", SqlTypeName.TIMESTAMP, 3)
        .nullable(true)
        .add("archived_at", SqlTypeName.TIMESTAMP, 3)
        .nullable(true)
        .add("committed_at", SqlTypeName.TIMESTAMP, 3)
        .add("rows", SqlTypeName.BIGINT)
        .build();
  }

  /** The subject trail: pseudonymous references only, never a natural identifier (DESIGN § 9). */
  private static RelDataType erasuresType(RelDataTypeFactory f) {
    return f.builder()
        .add("trail_sequence", SqlTypeName.BIGINT)
        .add("occurred_at", SqlTypeName.TIMESTAMP, 3)
        .add("action", SqlTypeName.VARCHAR)
        .add("erasure_trigger", SqlTypeName.VARCHAR)
        .nullable(true)
        .add("subject_refs", SqlTypeName.VARCHAR)
        .add("affected", SqlTypeName.INTEGER)
        .add("reason", SqlTypeName.VARCHAR)
        .add("actor", SqlTypeName.VARCHAR)
        .add("held_until", SqlTypeName.TIMESTAMP, 3)
        .nullable(true)
        .add("due_through", SqlTypeName.INTEGER)
        .nullable(true)
        .add("suppression_key_id", SqlTypeName.VARCHAR)
        .nullable(true)
        .build();
  }
}
