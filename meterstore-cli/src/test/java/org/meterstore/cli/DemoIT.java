package org.meterstore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code meterstore demo} on the embedded default (no test database: the demo starts its own
 * PostgreSQL under a data directory in target/), small enough to stay quick: every table healthy,
 * the month's days answered by both tiers, the DST day complete.
 */
class DemoIT {
  @Test
  void theDemoEndsHealthyWithAnAnswerFromBothTiers() {
    Path dir = Path.of("target", "demo-it");
    Cli.Run run =
        Cli.raw(
            "",
            "--format",
            "json",
            "demo",
            "--data-dir",
            dir.toString(),
            "--locations",
            "5",
            "--settlement-lag",
            "20d");
    assertThat(run.code()).as(run.toString()).isZero();
    JsonNode json = run.json();
    System.out.println("demo timings: " + json.get("timings"));
    assertThat(json.get("healthy").asBoolean()).isTrue();
    json.get("tables").forEach(t -> assertThat(t.get("healthy").asBoolean()).isTrue());
    assertThat(json.get("windows_archived").asInt()).isPositive();
    assertThat(json.get("readings").get("superseded").asLong()).isPositive();

    JsonNode days = json.get("daily_energy");
    assertThat(days).hasSize(31);
    Set<String> tiers = new HashSet<>();
    days.forEach(d -> tiers.add(d.get("tier").asText()));
    assertThat(tiers).contains("iceberg", "postgres");
    JsonNode dst = days.get(24);
    assertThat(dst.get("balancing_day").asText()).isEqualTo("2026-10-25");
    assertThat(dst.get("strom_kwh").isTextual()).isTrue();
    // four electricity locations: 100 quarter-hours each on the long day; the one gas location
    // (hourly) delivers its gas day of 24 hours
    assertThat(dst.get("readings").asInt()).isEqualTo(4 * 100 + 24);
  }
}
