package org.meterstore.cli.output;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

class RenderersTest {
  private static final Instant W = Instant.parse("2026-10-20T22:00:00Z");

  private static Document document() {
    return new Document()
        .put("healthy", true)
        .put("watermark", W)
        .put(
            "tables",
            Rows.of("table", "sum", "rows", "day")
                .with(
                    "strom",
                    new BigDecimal("1234567890123.000001"),
                    42L,
                    LocalDate.of(2026, 10, 25))
                .with("gas", new BigDecimal("1E+3"), 7L, null))
        .putJsonOnly("types", List.of("VARCHAR", "DECIMAL"));
  }

  @Test
  void jsonPrintsDecimalsAsStringsAndInstantsInIso() throws Exception {
    StringWriter out = new StringWriter();
    JsonRenderer.render(document(), out);
    JsonNode json = new ObjectMapper().readTree(out.toString());
    assertThat(json.get("healthy").asBoolean()).isTrue();
    assertThat(json.get("watermark").asText()).isEqualTo("2026-10-20T22:00:00Z");
    JsonNode first = json.get("tables").get(0);
    assertThat(first.get("sum").isTextual()).isTrue();
    assertThat(first.get("sum").asText()).isEqualTo("1234567890123.000001");
    assertThat(first.get("rows").isIntegralNumber()).isTrue();
    assertThat(first.get("day").asText()).isEqualTo("2026-10-25");
    assertThat(json.get("tables").get(1).get("sum").asText()).isEqualTo("1000");
    assertThat(json.get("tables").get(1).get("day").isNull()).isTrue();
    assertThat(json.get("types").size()).isEqualTo(2);
  }

  @Test
  void jsonPrintsSqlTimestampsAsUtcInstants() throws Exception {
    StringWriter out = new StringWriter();
    JsonRenderer.render(new Document().put("at", Timestamp.from(W)), out);
    assertThat(new ObjectMapper().readTree(out.toString()).get("at").asText())
        .isEqualTo("2026-10-20T22:00:00Z");
  }

  @Test
  void tablesAlignColumnsAndRightAlignNumbers() {
    StringWriter text = new StringWriter();
    TableRenderer.render(document(), new PrintWriter(text));
    List<String> lines = text.toString().lines().toList();
    assertThat(lines)
        .containsExactly(
            "healthy: true",
            "watermark: 2026-10-20T22:00:00Z",
            "tables:",
            "table                   sum  rows  day",
            "-----  --------------------  ----  ----------",
            "strom  1234567890123.000001    42  2026-10-25",
            "gas                    1000     7  null");
  }

  @Test
  void anEmptyResultStillShowsItsHeader() {
    assertThat(TableRenderer.lines(Rows.of("a", "bb")))
        .containsExactly("a  bb", "-  --", "(no rows)");
  }
}
