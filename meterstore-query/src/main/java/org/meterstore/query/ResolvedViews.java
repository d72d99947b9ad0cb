package org.meterstore.query;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.view.ResolvedView;
import org.meterstore.cold.view.ResolvedViewSql;
import org.meterstore.hot.HotStore;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.query.internal.system.PublishedSql;
import org.meterstore.query.internal.system.PublishedSql.Dialect;
import org.meterstore.query.internal.system.PublishedSql.HotPartition;

/**
 * The SQL of each table's resolved view ({@link ResolvedView}) in Spark's and Trino's dialects: the
 * federated query MeterStore publishes in {@code system.seam}, with the hot rows from W up read
 * from the table's partitions by name (listed when the view is published), so a detach that is
 * pending or done never hides rows from it; the parent supplies only partitions created later.
 * Rendered by Calcite's dialects (ADR 0024); the cold tier publishes it (ADR 0025).
 */
public final class ResolvedViews implements ResolvedViewSql {
  private final HotStore hot;
  private final String namespace;

  /**
   * The views' SQL over {@code hot}'s tables and the cold tables in Iceberg namespace {@code
   * namespace}.
   */
  public ResolvedViews(HotStore hot, String namespace) {
    this.hot = Objects.requireNonNull(hot, "hot");
    this.namespace = Objects.requireNonNull(namespace, "namespace");
  }

  @Override
  public Map<String, String> render(TableDefinition table, OptionalLong snapshotId, Instant w) {
    List<HotPartition> named = new ArrayList<>();
    for (PartitionInfo p : hot.partitions().list(table)) {
      if (p.upperBound().isAfter(w)) {
        named.add(new HotPartition(p.name(), p.lowerBound(), p.upperBound()));
      }
    }
    Map<String, String> sql = new LinkedHashMap<>();
    sql.put(
        ResolvedView.SPARK,
        PublishedSql.federated(
            table, Dialect.SPARK, namespace, hot.schema(), snapshotId, w, named));
    sql.put(
        ResolvedView.TRINO,
        PublishedSql.federated(
            table, Dialect.STANDARD, namespace, hot.schema(), snapshotId, w, named));
    return sql;
  }
}
