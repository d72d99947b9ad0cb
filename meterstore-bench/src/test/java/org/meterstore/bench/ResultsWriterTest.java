package org.meterstore.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsWriterTest {
  private static final Result MISSED =
      new Result(
          "1 hot ingest",
          "100 meters",
          "readings/s",
          2500,
          "raw COPY",
          10000,
          Target.ratioAtLeast(0.5),
          "a \"quoted\" note\twith a tab");
  private static final Result MET =
      new Result(
          "3 storage",
          "year",
          "bytes/reading",
          1.5,
          "PostgreSQL",
          300,
          Target.ratioAtMost(0.01),
          "");
  private static final Result INFO = new Result("6 p50", "d", "ms", 12.5, "idle", 0, null, "");

  @Test
  void writesOneJsonObjectPerResultWithTheIssuesFields() {
    String json = ResultsWriter.json(List.of(MISSED, MET, INFO));
    assertThat(json)
        .startsWith("[\n")
        .endsWith("]\n")
        .contains(
            "{\"name\": \"1 hot ingest\", \"dataset\": \"100 meters\", \"metric\": \"readings/s\","
                + " \"meterstore\": 2500, \"baseline_name\": \"raw COPY\", \"baseline\": 10000,"
                + " \"ratio\": 0.25, \"target\": \"ratio >= 0.5\", \"met\": false,"
                + " \"note\": \"a \\\"quoted\\\" note\\twith a tab\","
                + " \"wrong_answer\": false}")
        .contains("\"ratio\": 0.005, \"target\": \"ratio <= 0.01\", \"met\": true")
        .contains("\"baseline\": 0, \"ratio\": null, \"target\": null, \"met\": null");
  }

  @Test
  void marksAMissedTargetInTheTable() {
    String md = ResultsWriter.markdown(List.of(MISSED, INFO));
    assertThat(md.lines().toList())
        .hasSize(4)
        .element(2)
        .isEqualTo(
            "| 1 hot ingest | 100 meters | readings/s | 2,500 | raw COPY | 10,000 | 0.250"
                + " | ratio >= 0.5 | **no** |");
    assertThat(md).contains("| 6 p50 | d | ms | 12.50 | idle | 0.00 | n/a | — | — |");
  }

  @Test
  void aWrongAnswerFailsItsLineWithOrWithoutATarget() {
    Result wrong =
        new Result("9 p50", "d", "ms", 1, "PostgreSQL", 2, Target.ratioAtMost(1.5), "", true);
    Result wrongInfo = new Result("9 p95", "d", "ms", 1, "PostgreSQL", 2, null, "", true);
    assertThat(wrong.met()).isFalse();
    assertThat(wrongInfo.met()).isFalse();
    assertThat(INFO.wrongAnswer()).isFalse();
    assertThat(ResultsWriter.json(List.of(wrongInfo)))
        .contains("\"met\": false, \"note\": \"\", \"wrong_answer\": true}");
    assertThat(ResultsWriter.markdown(List.of(wrongInfo))).contains("| **no: WRONG ANSWER** |");
  }

  @Test
  void writesBothFiles(@TempDir Path dir) throws Exception {
    ResultsWriter.write(dir.resolve("bench"), List.of(MET), "# header");
    assertThat(Files.readString(dir.resolve("bench/results.json"))).contains("3 storage");
    assertThat(Files.readString(dir.resolve("bench/results.md"))).startsWith("# header\n\n|");
  }

  @Test
  void targetsCompareRatiosOrValuesAndNeverMeetNaN() {
    assertThat(Target.ratioAtLeast(0.5).met(1, 0.5)).isTrue();
    assertThat(Target.ratioAtMost(2).met(1, 2.1)).isFalse();
    assertThat(Target.valueAtLeast(200_000).met(53_000, 0.7)).isFalse();
    assertThat(Target.valueAtMost(256).met(100, Double.NaN)).isTrue();
    assertThat(Target.ratioAtMost(3).met(1, Double.NaN)).isFalse();
  }
}
