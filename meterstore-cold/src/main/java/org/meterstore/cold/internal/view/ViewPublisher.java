package org.meterstore.cold.internal.view;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.catalog.ViewCatalog;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.view.BaseView;
import org.apache.iceberg.view.SQLViewRepresentation;
import org.apache.iceberg.view.View;
import org.apache.iceberg.view.ViewBuilder;
import org.apache.iceberg.view.ViewMetadata;
import org.apache.iceberg.view.ViewOperations;
import org.apache.iceberg.view.ViewProperties;
import org.apache.iceberg.view.ViewRepresentation;
import org.apache.iceberg.view.ViewVersion;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.internal.catalog.TableAccess;
import org.meterstore.cold.internal.layout.TableLayout;
import org.meterstore.cold.internal.watermark.WatermarkReader;
import org.meterstore.cold.view.PublishResult;
import org.meterstore.cold.view.PublishResult.Status;
import org.meterstore.cold.view.ResolvedView;
import org.meterstore.cold.view.ResolvedViewSql;
import org.meterstore.cold.view.ViewState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes one table's {@link ResolvedView} through Iceberg's {@link ViewCatalog}. A publish reads
 * the view's metadata first and the table's state second, and commits against that metadata: a
 * concurrent publish of a newer state makes the commit fail and the next attempt reads both again,
 * so the view never moves back to an older state.
 *
 * <p>A view is created by Iceberg's builder, whose first version records no MeterStore summary; the
 * same publish then commits the version that does (the same state), so every state in the history
 * is recorded. Thread-safe: publishes of one table are serialised.
 */
public final class ViewPublisher implements ResolvedView {
  private static final Logger LOG = LoggerFactory.getLogger(ViewPublisher.class);

  static final String SNAPSHOT_ID = "meterstore.snapshot-id";
  static final String WATERMARK = "meterstore.watermark";
  static final String PUBLISHED_AT = "meterstore.published-at";
  static final String TABLE = "meterstore.table";

  /** Versions the view's history keeps: enough to span a reader grace of frequent commits. */
  static final int HISTORY = 100;

  private static final int ATTEMPTS = 4;

  private final ViewCatalog catalog;
  private final TableIdentifier id;
  private final TableAccess access;
  private final TableDefinition definition;
  private final ResolvedViewSql sql;
  private final String defaultCatalog;

  /**
   * The publisher of {@code definition}'s view next to its cold table.
   *
   * @param defaultCatalog the catalog name the view's SQL gives the Iceberg catalog
   */
  public ViewPublisher(
      ViewCatalog catalog,
      TableAccess access,
      TableDefinition definition,
      ResolvedViewSql sql,
      String defaultCatalog) {
    this.catalog = catalog;
    this.access = access;
    this.definition = definition;
    this.sql = sql;
    this.defaultCatalog = defaultCatalog;
    TableIdentifier table = access.identifier();
    this.id = TableIdentifier.of(table.namespace(), table.name() + SUFFIX);
  }

  @Override
  public String name() {
    return id.name();
  }

  @Override
  public synchronized PublishResult publish(Instant now) {
    String lastConflict = "";
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        access.probe(); // the view's metadata is on the same store: fail at once when it is down
        View view = load();
        ViewMetadata base = view == null ? null : ((BaseView) view).operations().current();
        Table table = access.load();
        Snapshot s = table.currentSnapshot();
        OptionalLong snapshotId =
            s == null ? OptionalLong.empty() : OptionalLong.of(s.snapshotId());
        Instant w = WatermarkReader.resolve(table, s, access.tableName());
        Optional<ViewState> current =
            base == null ? Optional.empty() : state(base.currentVersion());
        if (current.isPresent()
            && current.get().snapshotId().equals(snapshotId)
            && current.get().watermark().equals(w)) {
          return new PublishResult(Status.UNCHANGED, current, "");
        }
        Map<String, String> texts = sql.render(definition, snapshotId, w);
        if (view == null) {
          create(texts, snapshotId, w, now);
          continue; // the next attempt commits the version that records the state
        }
        ViewState state = commit((BaseView) view, base, texts, snapshotId, w, now);
        LOG.debug("Published view {} at snapshot {} W {}", id, snapshotId, w);
        return new PublishResult(Status.PUBLISHED, Optional.of(state), "");
      } catch (CommitFailedException | AlreadyExistsException e) {
        lastConflict = e.getMessage();
      } catch (UnsupportedOperationException e) {
        return new PublishResult(Status.UNSUPPORTED, Optional.empty(), String.valueOf(e));
      } catch (RuntimeException e) {
        LOG.warn("Cannot publish view {}: {}", id, e.toString());
        return new PublishResult(
            Status.FAILED, Optional.empty(), "Cannot publish view " + id + ": " + e);
      }
    }
    LOG.warn("Cannot publish view {}: concurrent publishes ({})", id, lastConflict);
    return new PublishResult(
        Status.FAILED,
        Optional.empty(),
        "Cannot publish view "
            + id
            + ": "
            + ATTEMPTS
            + " attempts conflicted ("
            + lastConflict
            + ")");
  }

  /** The view, or null when there is none. */
  private View load() {
    try {
      return catalog.loadView(id);
    } catch (NoSuchViewException e) {
      return null;
    }
  }

  /** {@link #load()} for readers of the history: a catalog that keeps no views has none. */
  private View loadIfSupported() {
    try {
      return load();
    } catch (UnsupportedOperationException e) {
      return null;
    }
  }

  private void create(Map<String, String> texts, OptionalLong snapshotId, Instant w, Instant now) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put(ViewProperties.VERSION_HISTORY_SIZE, Integer.toString(HISTORY));
    properties.put(TABLE, definition.name());
    properties.put(
        ViewProperties.COMMENT,
        "MeterStore table "
            + definition.name()
            + ": the current readings of both tiers, versions resolved, at the state in its"
            + " summary");
    properties.putAll(summary(snapshotId, w, now));
    ViewBuilder builder =
        catalog
            .buildView(id)
            .withSchema(schema())
            .withDefaultNamespace(id.namespace())
            .withDefaultCatalog(defaultCatalog)
            .withProperties(properties);
    for (Map.Entry<String, String> t : texts.entrySet()) {
      builder = builder.withQuery(t.getKey(), t.getValue());
    }
    builder.create();
    LOG.info("Created view {} for table {}", id, definition.name());
  }

  private ViewState commit(
      BaseView view,
      ViewMetadata base,
      Map<String, String> texts,
      OptionalLong snapshotId,
      Instant w,
      Instant now) {
    ViewOperations ops = view.operations();
    int next = base.versions().stream().mapToInt(ViewVersion::versionId).max().orElse(0) + 1;
    Schema schema = schema();
    List<ViewRepresentation> representations = new ArrayList<>();
    for (Map.Entry<String, String> t : texts.entrySet()) {
      representations.add(new Sql(t.getValue(), t.getKey()));
    }
    ViewVersion version =
        new Version(
            next,
            now.toEpochMilli(),
            summary(snapshotId, w, now),
            representations,
            schema.schemaId(),
            defaultCatalog,
            id.namespace());
    Map<String, String> properties = new LinkedHashMap<>(summary(snapshotId, w, now));
    ViewMetadata updated =
        ViewMetadata.buildFrom(base)
            .setProperties(properties)
            .setCurrentVersion(version, schema)
            .build();
    ops.commit(base, updated);
    return new ViewState(next, snapshotId, w, now);
  }

  private static Map<String, String> summary(OptionalLong snapshotId, Instant w, Instant now) {
    Map<String, String> s = new LinkedHashMap<>();
    if (snapshotId.isPresent()) {
      s.put(SNAPSHOT_ID, Long.toString(snapshotId.getAsLong()));
    }
    s.put(WATERMARK, w.toString());
    s.put(PUBLISHED_AT, now.toString());
    return s;
  }

  /** The table's columns, every one nullable (a view promises no more than its query). */
  private Schema schema() {
    List<Types.NestedField> fields = new ArrayList<>();
    for (Types.NestedField f : TableLayout.schema(definition).columns()) {
      fields.add(f.asOptional());
    }
    return new Schema(fields);
  }

  /** The state {@code version} records, or empty for a version MeterStore did not publish. */
  static Optional<ViewState> state(ViewVersion version) {
    Map<String, String> s = version.summary();
    String w = s.get(WATERMARK);
    String at = s.get(PUBLISHED_AT);
    if (w == null || at == null) {
      return Optional.empty();
    }
    try {
      String snapshot = s.get(SNAPSHOT_ID);
      return Optional.of(
          new ViewState(
              version.versionId(),
              snapshot == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(snapshot)),
              Instant.parse(w),
              Instant.parse(at)));
    } catch (NumberFormatException | DateTimeParseException e) {
      return Optional.empty();
    }
  }

  @Override
  public List<ViewState> versions() {
    access.probe();
    View view = loadIfSupported();
    return view == null ? List.of() : states(view);
  }

  /** The recorded states of {@code view}'s kept versions, oldest first. */
  private static List<ViewState> states(View view) {
    List<ViewState> states = new ArrayList<>();
    for (ViewVersion v : view.versions()) {
      state(v).ifPresent(states::add);
    }
    states.sort(Comparator.comparingInt(ViewState::versionId));
    return states;
  }

  /**
   * Reads the view's history; a view that cannot be read (the store or the catalog failing) holds
   * everything: a failure here must never let reclamation drop what a version may name.
   */
  @Override
  public boolean releases(Instant upper, Instant now, Duration grace) {
    try {
      return released(upper, now, grace);
    } catch (RuntimeException e) {
      LOG.warn("Cannot read view {}; keeping what it may name: {}", id, e.toString());
      return false;
    }
  }

  private boolean released(Instant upper, Instant now, Duration grace) {
    access.probe();
    View view = loadIfSupported();
    if (view == null) {
      return true;
    }
    List<ViewState> states = states(view); // the same metadata as the current version read below
    if (states.isEmpty()) {
      return false;
    }
    ViewState latest = states.get(states.size() - 1);
    Optional<ViewState> current = state(view.currentVersion());
    if (current.isEmpty() || current.get().watermark().isBefore(upper)) {
      return false; // the current version still names those rows
    }
    // the first kept version whose W reached upper stopped naming them (or an older one did)
    ViewState stopped = latest;
    for (ViewState v : states) {
      if (!v.watermark().isBefore(upper)) {
        stopped = v;
        break;
      }
    }
    return !stopped.publishedAt().plus(grace).isAfter(now);
  }

  @Override
  public Set<Long> snapshotsInUse(Instant now, Duration grace) {
    List<ViewState> states = versions();
    Set<Long> inUse = new HashSet<>();
    for (int i = 0; i < states.size(); i++) {
      boolean current = i == states.size() - 1;
      if (current || states.get(i + 1).publishedAt().plus(grace).isAfter(now)) {
        states.get(i).snapshotId().ifPresent(inUse::add);
      }
    }
    return inUse;
  }

  @Override
  public boolean drop() {
    try {
      return catalog.dropView(id);
    } catch (UnsupportedOperationException e) {
      return false;
    }
  }

  /** One dialect's SQL of a version. */
  private record Sql(String sql, String dialect) implements SQLViewRepresentation {}

  /** A version MeterStore commits: its state in the summary. */
  private record Version(
      int versionId,
      long timestampMillis,
      Map<String, String> summary,
      List<ViewRepresentation> representations,
      int schemaId,
      String defaultCatalog,
      Namespace defaultNamespace)
      implements ViewVersion {}
}
