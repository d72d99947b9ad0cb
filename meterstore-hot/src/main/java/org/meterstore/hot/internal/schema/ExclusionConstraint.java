package org.meterstore.hot.internal.schema;

import static org.meterstore.api.table.SqlIdentifiers.quote;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.api.table.TimeModel;

/**
 * The GiST exclusion constraints of DESIGN § 3.3: the one a new partition may carry ({@link
 * #SPANS_DO_NOT_OVERLAP}) and the one only partitions created by earlier versions carry ({@link
 * #ONE_OPERATOR_PER_READING}, now enforced by the writer; see docs/adr/0016).
 *
 * <p>PostgreSQL refuses an {@code EXCLUDE} constraint on a partitioned parent unless it compares
 * the partition key with {@code =}, so each partition carries its own, added while it is still a
 * standalone table. Constraint names share the schema's namespace with tables and indexes, so the
 * physical name is {@code <partition>_<suffix>}; {@link #fromPhysicalName} maps it back to the
 * logical name reported to callers. A partition name has at most 50 characters, so the longest
 * physical name ({@code _one_operator}) fits PostgreSQL's 63 bytes.
 */
public enum ExclusionConstraint {
  /** Spans of one reading under one version do not overlap ({@code INTERVAL} tables only). */
  SPANS_DO_NOT_OVERLAP("spans_do_not_overlap", "_no_overlap"),
  /**
   * One reading (merge key) has one network operator, the first half of its version scope. No
   * partition is created with it any more: the writer enforces the rule under its market-location
   * locks. Partitions created before keep it until they are reclaimed, so a violation it raises is
   * still mapped back and diagnosed.
   */
  ONE_OPERATOR_PER_READING("one_operator_per_reading", "_one_operator");

  private final String logicalName;
  private final String suffix;

  ExclusionConstraint(String logicalName, String suffix) {
    this.logicalName = logicalName;
    this.suffix = suffix;
  }

  /** The name callers see in errors and docs, e.g. {@code spans_do_not_overlap}. */
  public String logicalName() {
    return logicalName;
  }

  /** The constraint's name on {@code partition}. */
  public String physicalName(String partition) {
    return partition + suffix;
  }

  /**
   * The constraints a new partition of {@code table} carries: {@link #SPANS_DO_NOT_OVERLAP} on
   * {@code INTERVAL} tables unless their fixed resolution's grid already rules overlap out ({@link
   * TableDefinition#gridExcludesOverlap}), else none. Never {@link #ONE_OPERATOR_PER_READING}.
   */
  public static List<ExclusionConstraint> of(TableDefinition table) {
    return table.timeModel() == TimeModel.INTERVAL && !table.gridExcludesOverlap()
        ? List.of(SPANS_DO_NOT_OVERLAP)
        : List.of();
  }

  /** The logical constraint a physical constraint name belongs to, if it is one of these. */
  public static Optional<ExclusionConstraint> fromPhysicalName(String name) {
    if (name == null) {
      return Optional.empty();
    }
    for (ExclusionConstraint c : values()) {
      if (name.endsWith(c.suffix)) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }

  /**
   * The {@code EXCLUDE USING gist (…)} clause for {@code table}.
   *
   * <p>Keys are compared as {@code bigint}s, because GiST over {@code btree_gist}'s text and
   * numeric operator classes cost about four times as much per insert (see docs/benchmarks.md): the
   * MaLo id (11 digits) and the operator's market partner id (13 digits) are exact casts, which
   * CHECK constraints on the parent guarantee; the rest of the key (metering location, OBIS code,
   * identity columns and, for spans, the version) is compared through {@code hashtextextended}.
   * Rows are compared only within one MaLo id (and one {@code from} for the operator rule), so a
   * hash collision needs two keys of the same market location to collide: it could only ever refuse
   * a valid delivery loudly, never admit an invalid one.
   */
  public String definition(TableDefinition table) {
    List<String> elements = new ArrayList<>();
    elements.add("(" + quote("malo_id") + "::bigint) WITH =");
    List<String> rest = new ArrayList<>();
    for (String column : table.mergeKey()) {
      if (!column.equals("malo_id") && !column.equals("from")) {
        rest.add("coalesce(" + quote(column) + ", '')");
      }
    }
    if (this == SPANS_DO_NOT_OVERLAP) {
      rest.add("(" + quote("version") + ")::text");
      elements.add(hashed(rest) + " WITH =");
      elements.add("tstzrange(" + quote("from") + ", " + quote("to") + ") WITH &&");
    } else {
      elements.add(quote("from") + " WITH =");
      elements.add(hashed(rest) + " WITH =");
      elements.add("(split_part(" + quote("version_scope") + ", ':', 1)::bigint) WITH <>");
    }
    return "EXCLUDE USING gist (" + String.join(", ", elements) + ")";
  }

  /**
   * {@code hashtextextended(a || chr(31) || b …, 0)}: immutable, as an index expression must be.
   */
  private static String hashed(List<String> parts) {
    return "(hashtextextended(" + String.join(" || chr(31) || ", parts) + ", 0))";
  }
}
