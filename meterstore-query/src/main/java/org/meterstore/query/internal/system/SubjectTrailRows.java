package org.meterstore.query.internal.system;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.meterstore.hot.subject.SubjectRef;
import org.meterstore.hot.subject.Subjects;
import org.meterstore.hot.subject.TrailEntry;
import org.meterstore.query.internal.state.CatalogRuntime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rows of {@code system.erasures}: the subject registry's append-only trail (erasures, legal
 * holds, releases, lifted suppressions) up to the refresh's {@code now}. A trail entry holds only
 * pseudonymous references, so no natural identifier can reach SQL through this relation. Kept apart
 * from {@link SystemTablesComputer} because the trail is deployment-wide, not per table.
 */
final class SubjectTrailRows {
  /** The most trail entries one refresh reads (the trail's own page limit), oldest first. */
  static final int LIMIT = 100_000;

  private static final Logger LOG = LoggerFactory.getLogger(SubjectTrailRows.class);

  private SubjectTrailRows() {}

  /**
   * The trail entries at or before {@code now}; empty (logged) when the registry cannot be read.
   */
  static List<Object[]> compute(CatalogRuntime rt, Instant now) {
    List<Object[]> rows = new ArrayList<>();
    try {
      Subjects subjects = rt.hot().subjects();
      // the upper bound is exclusive; an entry recorded at exactly now is included
      for (TrailEntry e : subjects.trail(Instant.EPOCH, now.plusNanos(1000), LIMIT)) {
        rows.add(row(e));
      }
    } catch (RuntimeException e) {
      LOG.warn("Cannot read the subject trail: {}", e.toString());
    }
    return rows;
  }

  static Object[] row(TrailEntry e) {
    return new Object[] {
      e.sequence(),
      e.at().toEpochMilli(),
      e.action().name().toLowerCase(Locale.ROOT),
      e.trigger() == null ? null : e.trigger().attributeValue(),
      e.references().stream().map(SubjectRef::value).collect(Collectors.joining(",")),
      e.affected(),
      e.reason(),
      e.actor(),
      e.heldUntil() == null ? null : e.heldUntil().toEpochMilli(),
      e.dueThrough() == null ? null : e.dueThrough().getValue(),
      e.suppressionKeyId()
    };
  }
}
