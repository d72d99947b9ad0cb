package org.meterstore.cli.command;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.meterstore.MeterCatalog;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cli.output.Document;
import org.meterstore.cli.output.ExitCode;
import org.meterstore.cli.output.Rows;
import org.meterstore.hot.subject.SubjectRef;
import org.meterstore.hot.subject.TrailAction;
import org.meterstore.hot.subject.TrailEntry;
import org.meterstore.hot.subject.Trigger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code meterstore erasures}: the audit trail of the subject registry — erasures (GDPR Art. 17
 * requests and the retention sweep), legal holds and their releases, lifted suppressions. It never
 * shows a natural identifier: only pseudonymous references.
 */
@Command(
    name = "erasures",
    description = {
      "List the subject erasure trail (erasures, holds, releases).",
      "",
      "List the erasure trail, oldest first: when, why and by whom subject mappings were erased",
      "(requests and the retention sweep), legal holds placed and released, and suppression",
      "entries lifted. Shows pseudonymous references, never natural ids."
    })
final class ErasuresCommand extends Verb {
  @Mixin NowOption now;

  @Option(
      names = "--since",
      paramLabel = "<instant>",
      description = "Entries at or after this instant (default: the beginning).")
  Instant since;

  @Option(
      names = "--trigger",
      paramLabel = "request|retention",
      description = "Only erasures of this trigger (implies --action erase).")
  String trigger;

  @Option(
      names = "--action",
      paramLabel = "erase|hold|release|lift_suppression",
      description = "Only entries of this action (default: every action).")
  String action;

  @Option(
      names = "--limit",
      paramLabel = "<n>",
      description = "At most this many entries (default: ${DEFAULT-VALUE}).")
  int limit = 1_000;

  @Override
  public Integer call() {
    Instant until = now.get();
    Instant from = since == null ? Instant.EPOCH : since;
    Trigger only = trigger == null ? null : trigger(trigger);
    TrailAction onlyAction = action == null ? null : action(action);
    if (only != null && onlyAction != null && onlyAction != TrailAction.ERASE) {
      throw MeterStoreException.invalid(
          "--action", action, "erase, or no --action, with --trigger (only erasures have one)");
    }
    if (limit < 1 || limit > 100_000) {
      throw MeterStoreException.invalid("--limit", limit, "1 to 100000");
    }
    Rows rows =
        Rows.of(
            "sequence",
            "at",
            "action",
            "trigger",
            "affected",
            "reason",
            "actor",
            "held_until",
            "due_through",
            "references");
    try (MeterCatalog catalog = Deployments.open(root.configFile())) {
      for (TrailEntry e : entries(catalog, from, until, only, onlyAction)) {
        rows =
            rows.with(
                e.sequence(),
                e.at(),
                e.action().name().toLowerCase(Locale.ROOT),
                e.trigger() == null ? null : e.trigger().attributeValue(),
                e.affected(),
                e.reason(),
                e.actor(),
                e.heldUntil(),
                e.dueThrough() == null ? null : e.dueThrough().getValue(),
                e.references().stream().map(SubjectRef::value).toList());
      }
    }
    root.print(new Document().put("since", from).put("until", until).put("erasures", rows));
    return ExitCode.OK;
  }

  /**
   * The entries at or after {@code from} up to {@code until} inclusive, of {@code onlyAction} (all
   * when null); erasures of {@code trigger} only when set.
   */
  private List<TrailEntry> entries(
      MeterCatalog catalog, Instant from, Instant until, Trigger trigger, TrailAction onlyAction) {
    // until is exclusive; an entry recorded at exactly --now is included
    Instant to = until.plusNanos(1000);
    if (trigger != null || onlyAction == TrailAction.ERASE) {
      return catalog.subjects().erasures(from, to, trigger, limit);
    }
    List<TrailEntry> all = catalog.subjects().trail(from, to, onlyAction == null ? limit : 100_000);
    return all.stream()
        .filter(e -> onlyAction == null || e.action() == onlyAction)
        .limit(limit)
        .toList();
  }

  private static TrailAction action(String text) {
    try {
      return TrailAction.valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (RuntimeException e) {
      throw MeterStoreException.invalid(
          "--action", text, "one of erase, hold, release, lift_suppression");
    }
  }

  private static Trigger trigger(String text) {
    try {
      return Trigger.fromAttributeValue(text.toLowerCase(Locale.ROOT));
    } catch (RuntimeException e) {
      throw MeterStoreException.invalid("--trigger", text, "request or retention");
    }
  }
}
