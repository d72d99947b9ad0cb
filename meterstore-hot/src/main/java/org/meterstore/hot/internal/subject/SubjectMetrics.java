package org.meterstore.hot.internal.subject;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import org.meterstore.hot.internal.write.WriteMetrics;
import org.meterstore.hot.subject.Trigger;

/**
 * The registry's instruments (DESIGN § 10). {@code meterstore.subjects_erased} counts mappings
 * erased, attribute {@code trigger} only; {@code meterstore.registrations_suppressed} counts
 * refused registrations, no attribute. Neither has a {@code table}: the registry is
 * deployment-wide, and a per-table split would invite a sum that double-counts. Erasures are
 * recorded after commit.
 */
final class SubjectMetrics {
  private static final AttributeKey<String> TRIGGER = AttributeKey.stringKey("trigger");

  private final LongCounter erased;
  private final LongCounter suppressed;

  SubjectMetrics(OpenTelemetry openTelemetry) {
    Meter meter = openTelemetry.getMeter(WriteMetrics.SCOPE);
    this.erased =
        meter
            .counterBuilder("meterstore.subjects_erased")
            .setUnit("{mapping}")
            .setDescription("Subject mappings (person and collection year) erased")
            .build();
    this.suppressed =
        meter
            .counterBuilder("meterstore.registrations_suppressed")
            .setUnit("{registration}")
            .setDescription("Registrations refused because the identifier was erased")
            .build();
  }

  void erased(Trigger trigger, long mappings) {
    if (mappings > 0) {
      erased.add(mappings, Attributes.of(TRIGGER, trigger.attributeValue()));
    }
  }

  void registrationSuppressed() {
    suppressed.add(1);
  }
}
