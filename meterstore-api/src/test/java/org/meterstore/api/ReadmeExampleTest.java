package org.meterstore.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.meterstore.api.calendar.MeteringCalendar;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.table.ExtraColumn;
import org.meterstore.api.table.TableDefinition;

/** The "A first look" example of README.md, so the README cannot drift from the code. */
class ReadmeExampleTest {
  @Test
  void theReadmeExamplePrintsWhatTheReadmeSays() {
    TableDefinition lastgang =
        TableDefinition.interval("lastgang")
            .withExtraColumns(List.of(ExtraColumn.identity("tenant")));

    Reading r =
        Reading.builder()
            .malo("51238696781")
            .obis("1-0:1.8.0")
            .commodity(Commodity.STROM)
            .interval(Instant.parse("2026-03-29T00:45:00Z"), Resolution.PT15M)
            .value("0.250")
            .operator("9900000000003")
            .version("20260330120000")
            .extra("tenant", "stadtwerk-nord")
            .build();

    assertThat(lastgang.mergeKey()).hasToString("[malo_id, obis_code, from, tenant]");
    assertThat(lastgang.accept(r)).hasToString("{tenant=stadtwerk-nord}");
    assertThat(r.versionScope()).hasToString("9900000000003:2026-03");
    assertThat(
            MeteringCalendar.expectedIntervals(
                LocalDate.parse("2026-03-29"), Resolution.PT15M, Commodity.STROM))
        .isEqualTo(92);
    InvalidInput.assertInvalidMessage(
        () -> r.toBuilder().malo("51238696782"),
        "Invalid MaLo-ID: '51238696782' (11 digits, check digit 1 expected)");
  }
}
