package org.meterstore.cli.output;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Prints a {@link Document} for people: scalar fields as {@code name: value} lines, {@link Rows} as
 * columns aligned under a header (numbers to the right), nested documents indented under their
 * name.
 */
public final class TableRenderer {
  private static final String GAP = "  ";

  private TableRenderer() {}

  /** Writes {@code document} to {@code out}. */
  public static void render(Document document, PrintWriter out) {
    render(document, out, "");
    out.flush();
  }

  private static void render(Document document, PrintWriter out, String indent) {
    for (Map.Entry<String, Object> e : document.fields().entrySet()) {
      String name = e.getKey();
      Object value = e.getValue();
      if (document.isJsonOnly(name)) {
        continue;
      }
      if (value instanceof Rows rows) {
        if (!document.isUntitled(name)) {
          out.println(indent + name + ":");
        }
        for (String line : lines(rows)) {
          out.println(indent + line);
        }
      } else if (value instanceof Document nested) {
        out.println(indent + name + ":");
        render(nested, out, indent + GAP);
      } else {
        out.println(indent + name + ": " + scalar(value));
      }
    }
  }

  private static String scalar(Object value) {
    if (value instanceof Collection<?> c) {
      return c.stream().map(TableRenderer::scalar).collect(Collectors.joining(", "));
    }
    return Values.text(value);
  }

  /** The lines of an aligned table: header, rule, one line per row (trailing blanks trimmed). */
  static List<String> lines(Rows rows) {
    List<String> columns = rows.columns();
    int n = columns.size();
    int[] width = new int[n];
    boolean[] right = new boolean[n];
    List<String[]> cells = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      width[i] = columns.get(i).length();
    }
    for (List<Object> row : rows.rows()) {
      String[] text = new String[n];
      for (int i = 0; i < n; i++) {
        Object v = row.get(i);
        text[i] = v instanceof Collection<?> c ? scalar(c) : Values.text(v);
        width[i] = Math.max(width[i], text[i].length());
        right[i] |= Values.isNumeric(v);
      }
      cells.add(text);
    }
    List<String> lines = new ArrayList<>();
    lines.add(line(columns.toArray(String[]::new), width, right));
    String[] rule = new String[n];
    for (int i = 0; i < n; i++) {
      rule[i] = "-".repeat(width[i]);
    }
    lines.add(line(rule, width, new boolean[n]));
    for (String[] text : cells) {
      lines.add(line(text, width, right));
    }
    if (rows.rows().isEmpty()) {
      lines.add("(no rows)");
    }
    return lines;
  }

  private static String line(String[] text, int[] width, boolean[] right) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < text.length; i++) {
      if (i > 0) {
        b.append(GAP);
      }
      String pad = " ".repeat(width[i] - text[i].length());
      b.append(right[i] ? pad + text[i] : text[i] + pad);
    }
    return b.toString().stripTrailing();
  }
}
