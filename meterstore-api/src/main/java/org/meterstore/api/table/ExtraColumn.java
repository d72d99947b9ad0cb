package org.meterstore.api.table;

import java.util.Set;
import org.meterstore.api.MeterStoreException;

/**
 * A column a deployment declares beyond the standard ones.
 *
 * @param name a lowercase identifier that is not a standard column's name
 * @param role what the column is for
 * @param allowedValues the closed value list of a {@link ColumnRole#CODED} column, else empty
 * @param checkedKind the rule of a {@link ColumnRole#CHECKED} column, else null
 */
public record ExtraColumn(
    String name, ColumnRole role, Set<String> allowedValues, CheckedKind checkedKind) {

  /** Checks that the name is usable and that role, value list and rule agree. */
  public ExtraColumn {
    TableDefinition.requireIdentifier("column name", name, 63);
    if (StandardColumn.isStandardName(name)) {
      throw MeterStoreException.invalid("column name", name, "clashes with a standard column");
    }
    if (role == null) {
      throw MeterStoreException.invalid("column role", null, "required for column " + name);
    }
    allowedValues = Set.copyOf(allowedValues == null ? Set.of() : allowedValues);
    if ((role == ColumnRole.CODED) == allowedValues.isEmpty()) {
      throw MeterStoreException.invalid(
          "allowed values", allowedValues, "exactly the CODED column " + name + " has a list");
    }
    for (String v : allowedValues) {
      if (v == null || v.indexOf('\'') >= 0 || v.indexOf('\\') >= 0) {
        // the hot tier restates the list as a CHECK; refused here, every path sees it (check too)
        throw MeterStoreException.invalid(
            "allowed value of column " + name,
            v,
            "text without a quote (') or backslash (\\), written as a literal in a CHECK");
      }
    }
    if ((role == ColumnRole.CHECKED) == (checkedKind == null)) {
      throw MeterStoreException.invalid(
          "checked kind", checkedKind, "exactly the CHECKED column " + name + " has a rule");
    }
  }

  /** A merge-key column (not null). */
  public static ExtraColumn identity(String name) {
    return new ExtraColumn(name, ColumnRole.IDENTITY, Set.of(), null);
  }

  /** A nullable free-text column. */
  public static ExtraColumn attribute(String name) {
    return new ExtraColumn(name, ColumnRole.ATTRIBUTE, Set.of(), null);
  }

  /** A nullable column restricted to {@code values}. */
  public static ExtraColumn coded(String name, Set<String> values) {
    return new ExtraColumn(name, ColumnRole.CODED, values, null);
  }

  /** A nullable column whose values must pass {@code kind}'s rule. */
  public static ExtraColumn checked(String name, CheckedKind kind) {
    return new ExtraColumn(name, ColumnRole.CHECKED, Set.of(), kind);
  }

  /** Whether this column is part of the merge key. */
  public boolean isIdentity() {
    return role == ColumnRole.IDENTITY;
  }

  /** The column as both tiers store it. */
  public ColumnSpec spec() {
    return new ColumnSpec(name, ColumnType.TEXT, !isIdentity());
  }

  /**
   * Checks one value and returns the form to store (canonical for checked columns).
   *
   * @throws MeterStoreException {@code INVALID_INPUT} naming the column and the rule
   */
  public String accept(String value) {
    if (value == null) {
      if (isIdentity()) {
        throw MeterStoreException.invalid(name, null, "an identity column is required");
      }
      return null;
    }
    switch (role) {
      case IDENTITY:
      case ATTRIBUTE:
        if (value.isEmpty()) {
          throw MeterStoreException.invalid(name, value, "must not be empty");
        }
        return value;
      case CODED:
        if (!allowedValues.contains(value)) {
          throw MeterStoreException.invalid(name, value, "one of " + allowedValues);
        }
        return value;
      case CHECKED:
        return checkedKind.canonical(value);
      default:
        throw new IllegalStateException("unknown role " + role);
    }
  }
}
