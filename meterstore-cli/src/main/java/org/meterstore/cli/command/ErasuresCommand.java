package org.meterstore.cli.command;

import java.time.Instant;
import java.util.Locale;
import org.meterstore.MeterCatalog;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cli.output.Document;
import org.meterstore.cli.output.ExitCode;
import org.meterstore.cli.output.Rows;
import org.meterstore.hot.subject.SubjectRef;
import org.meterstore.hot.subject.TrailEntry;
import org.meterstore.hot.subject.Trigger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code meterstore erasures}: the audit trail of subject erasures (GDPR Art. 17 requests and the
 * retention sweep). It never shows a natural identifier: only pseudonymous references.
 */
@Command(
    name = "erasures",
    description = {
      "List the subject erasure trail.",
      "",
      "List the erasure trail: when, why and by whom subject mappings were erased (requests and",
      "the retention sweep), oldest first. Shows pseudonymous references, never natural ids."
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
      description = "Only erasures of this trigger.")
  String trigger;

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
    if (limit < 1 || limit > 100_000) {
      throw MeterStoreException.invalid("--limit", limit, "1 to 100000");
    }
    Rows rows =
        Rows.of(
            "sequence",
            "at",
            "trigger",
            "affected",
            "reason",
            "actor",
            "due_through",
            "references");
    try (MeterCatalog catalog = Deployments.open(root.configFile())) {
      // until is exclusive; an entry recorded at exactly --now is included
      for (TrailEntry e :
          catalog.hot().subjects().erasures(from, until.plusNanos(1000), only, limit)) {
        rows =
            rows.with(
                e.sequence(),
                e.at(),
                e.trigger() == null ? null : e.trigger().attributeValue(),
                e.affected(),
                e.reason(),
                e.actor(),
                e.dueThrough() == null ? null : e.dueThrough().getValue(),
                e.references().stream().map(SubjectRef::value).toList());
      }
    }
    root.print(new Document().put("since", from).put("until", until).put("erasures", rows));
    return ExitCode.OK;
  }

  private static Trigger trigger(String text) {
    try {
      return Trigger.fromAttributeValue(text.toLowerCase(Locale.ROOT));
    } catch (RuntimeException e) {
      throw MeterStoreException.invalid("--trigger", text, "request or retention");
    }
  }
}
