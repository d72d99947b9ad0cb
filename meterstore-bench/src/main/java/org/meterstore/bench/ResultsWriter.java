package org.meterstore.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** Renders results as the JSON array and the Markdown table of issue #9, and writes both. */
public final class ResultsWriter {
  private ResultsWriter() {}

  /** Writes {@code results.json} and {@code results.md} into {@code dir} (created if needed). */
  public static void write(Path dir, List<Result> results, String header) throws IOException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("results.json"), json(results), StandardCharsets.UTF_8);
    Files.writeString(
        dir.resolve("results.md"), header + "\n\n" + markdown(results), StandardCharsets.UTF_8);
  }

  /**
   * A JSON array with one object per result: name, dataset, metric, meterstore, baseline_name,
   * baseline, ratio, target, met, note and wrong_answer (true when MeterStore's answers differed
   * from the baseline's). Non-finite numbers and a missing target are null.
   */
  public static String json(List<Result> results) {
    StringBuilder out = new StringBuilder("[\n");
    for (int i = 0; i < results.size(); i++) {
      Result r = results.get(i);
      out.append("  {")
          .append("\"name\": ")
          .append(string(r.name()))
          .append(", \"dataset\": ")
          .append(string(r.dataset()))
          .append(", \"metric\": ")
          .append(string(r.metric()))
          .append(", \"meterstore\": ")
          .append(jsonNumber(r.meterstore()))
          .append(", \"baseline_name\": ")
          .append(string(r.baselineName()))
          .append(", \"baseline\": ")
          .append(jsonNumber(r.baseline()))
          .append(", \"ratio\": ")
          .append(jsonNumber(r.ratio()))
          .append(", \"target\": ")
          .append(r.target() == null ? "null" : string(r.target().toString()))
          .append(", \"met\": ")
          .append(r.met() == null ? "null" : r.met().toString())
          .append(", \"note\": ")
          .append(string(r.note()))
          .append(", \"wrong_answer\": ")
          .append(r.wrongAnswer())
          .append(i + 1 < results.size() ? "},\n" : "}\n");
    }
    return out.append("]\n").toString();
  }

  /** A Markdown table, one row per result. */
  public static String markdown(List<Result> results) {
    StringBuilder out =
        new StringBuilder(
            "| benchmark | dataset | metric | MeterStore | baseline | baseline value | ratio"
                + " | target | met |\n|---|---|---|---|---|---|---|---|---|\n");
    for (Result r : results) {
      out.append("| ")
          .append(cell(r.name()))
          .append(" | ")
          .append(cell(r.dataset()))
          .append(" | ")
          .append(cell(r.metric()))
          .append(" | ")
          .append(number(r.meterstore()))
          .append(" | ")
          .append(cell(r.baselineName()))
          .append(" | ")
          .append(number(r.baseline()))
          .append(" | ")
          .append(number(r.ratio()))
          .append(" | ")
          .append(r.target() == null ? "—" : cell(r.target().toString()))
          .append(" | ")
          .append(met(r))
          .append(" |\n");
    }
    return out.toString();
  }

  /** The table's "met" cell: yes, no, or a wrong answer. */
  private static String met(Result r) {
    if (r.wrongAnswer()) {
      return "**no: WRONG ANSWER**";
    }
    return r.met() == null ? "—" : r.met() ? "yes" : "**no**";
  }

  /** A human-readable number: grouped integers from 1,000 up, else 3 significant decimals. */
  static String number(double x) {
    if (Double.isNaN(x) || Double.isInfinite(x)) {
      return "n/a";
    }
    double abs = Math.abs(x);
    if (abs >= 1000) {
      return String.format(Locale.ROOT, "%,.0f", x);
    }
    if (abs >= 100) {
      return String.format(Locale.ROOT, "%.1f", x);
    }
    if (abs >= 1 || abs == 0) {
      return String.format(Locale.ROOT, "%.2f", x);
    }
    return String.format(Locale.ROOT, "%.3g", x);
  }

  private static String jsonNumber(double x) {
    if (Double.isNaN(x) || Double.isInfinite(x)) {
      return "null";
    }
    if (x == Math.rint(x) && Math.abs(x) < 1e15) {
      return Long.toString((long) x);
    }
    return String.format(Locale.ROOT, "%.6g", x).replaceFirst("\\.?0+(e|$)", "$1");
  }

  private static String string(String s) {
    if (s == null) {
      return "null";
    }
    StringBuilder out = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }

  private static String cell(String s) {
    return s == null ? "" : s.replace("|", "\\|").replace("\n", " ");
  }
}
