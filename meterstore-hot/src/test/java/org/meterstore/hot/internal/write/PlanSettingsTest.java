package org.meterstore.hot.internal.write;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.table.TableDefinition;

/** Which writes force custom plans, and what their first statement sets. */
class PlanSettingsTest {
  @Test
  void onlyIntervalTablesWhoseGridAllowsOverlapForceCustomPlans() {
    assertThat(CrossingSpans.customPlans(TableDefinition.interval("lastgang"))).isTrue();
    assertThat(
            CrossingSpans.customPlans(
                TableDefinition.interval("fleet").withResolution(Resolution.parse("PT15M"))))
        .isFalse();
    assertThat(CrossingSpans.customPlans(TableDefinition.point("zaehlerstand"))).isFalse();
  }

  @Test
  void sequentialScansAreOffEitherWay() {
    assertThat(CrossingSpans.planSettings(true))
        .contains("'enable_seqscan', 'off', true", "'plan_cache_mode', 'force_custom_plan', true");
    assertThat(CrossingSpans.planSettings(false))
        .contains("'enable_seqscan', 'off', true")
        .doesNotContain("plan_cache_mode");
    WriteLocks fleet = new WriteLocks("meterstore", "fleet", CrossingSpans.planSettings(false));
    assertThat(fleet.statements(new WriteLocks.Plan(false, new Integer[] {1})))
        .startsWith("SELECT current_setting('transaction_isolation'), set_config('enable_seqscan'")
        .contains("pg_advisory_xact_lock_shared(?, ?)");
  }
}
