package org.meterstore.query.internal.predicate;

import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.meterstore.api.table.ColumnType;
import org.meterstore.api.table.TableDefinition;

/** Renders {@link Pred}s for plans: column names and readable values ({@code from >= 2026-…Z}). */
public final class PredText {
  private PredText() {}

  /** The conjunction of {@code preds} as text, {@code true} when empty. */
  public static String describe(List<Pred> preds, TableDefinition def) {
    if (preds.isEmpty()) {
      return "true";
    }
    List<String> parts = new ArrayList<>();
    preds.forEach(p -> parts.add(text(p, def)));
    return String.join(" AND ", parts);
  }

  private static String text(Pred p, TableDefinition def) {
    if (p instanceof Pred.Cmp c) {
      return def.columns().get(c.column()).name() + " " + c.op().sql + " " + value(c, def);
    }
    if (p instanceof Pred.IsNull n) {
      return def.columns().get(n.column()).name() + (n.negated() ? " IS NOT NULL" : " IS NULL");
    }
    if (p instanceof Pred.Not n) {
      return "NOT (" + text(n.part(), def) + ")";
    }
    boolean and = p instanceof Pred.And;
    List<Pred> parts = and ? ((Pred.And) p).parts() : ((Pred.Or) p).parts();
    List<String> texts = new ArrayList<>();
    parts.forEach(x -> texts.add(text(x, def)));
    return "(" + String.join(and ? " AND " : " OR ", texts) + ")";
  }

  private static String value(Pred.Cmp c, TableDefinition def) {
    if (!(c.value() instanceof Pred.Literal literal)) {
      return c.value().toString();
    }
    ColumnType type = def.columns().get(c.column()).type();
    Object v = literal.internal();
    if (type == ColumnType.TIMESTAMPTZ) {
      return Instant.ofEpochMilli(((Number) v).longValue()).toString();
    }
    if (type == ColumnType.DATE) {
      return LocalDate.ofEpochDay(((Number) v).longValue()).toString();
    }
    return type == ColumnType.TEXT ? "'" + v + "'" : v.toString();
  }
}
