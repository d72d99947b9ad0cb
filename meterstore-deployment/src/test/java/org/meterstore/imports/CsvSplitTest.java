package org.meterstore.imports;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a CSV file is cut for a check on two threads: the second half, read from the cut with the
 * line the cut names, gives exactly the records (fields and lines) a reader of the whole file gives
 * from there on; no cut where a quote comes first.
 */
class CsvSplitTest {
  @TempDir Path dir;

  /** A record and the line it starts on. */
  private record Line(long line, List<String> fields) {}

  private static List<Line> read(CsvRecords csv) throws IOException {
    List<Line> out = new ArrayList<>();
    try (csv) {
      for (String[] r = csv.next(); r != null; r = csv.next()) {
        out.add(new Line(csv.recordLine(), Arrays.asList(r)));
      }
    }
    return out;
  }

  /** Random records: LF, CRLF and lone CR ends, blank lines, and quotes only after {@code from}. */
  private static String text(Random random, int records, int quotesFrom) {
    String[] ends = {"\n", "\r\n", "\r"};
    StringBuilder out = new StringBuilder("a,b,c\n");
    for (int i = 0; i < records; i++) {
      if (random.nextInt(20) == 0) {
        out.append(ends[random.nextInt(ends.length)]); // a blank line
      }
      for (int f = 0; f < 3; f++) {
        if (f > 0) {
          out.append(',');
        }
        if (i >= quotesFrom && random.nextInt(6) == 0) {
          out.append("\"q,").append(i).append(random.nextBoolean() ? "\n" : "\r\n").append("\"");
        } else {
          out.append(Integer.toString(random.nextInt(1 << 20), 36).repeat(1 + random.nextInt(3)));
        }
      }
      out.append(ends[random.nextInt(ends.length)]);
    }
    return out.toString();
  }

  @Test
  void theSecondHalfReadsAsTheWholeFileReadsFromTheCut() throws IOException {
    Random random = new Random(37);
    int cuts = 0;
    for (int round = 0; round < 200; round++) {
      int records = 2 + random.nextInt(400);
      // quoted fields (with line breaks) only in the file's last part, or nowhere
      int quotesFrom = random.nextBoolean() ? records : records * 3 / 4;
      byte[] bytes = text(random, records, quotesFrom).getBytes(StandardCharsets.UTF_8);
      Path file = Files.write(dir.resolve("f" + round + ".csv"), bytes);
      int buffer = 8 + random.nextInt(64); // small buffers: words and CRs across every end

      CsvSplit split = CsvSplit.find(file, bytes.length, buffer);

      if (split == null) {
        continue; // a quote before the first line feed past the middle, or no line feed there
      }
      cuts++;
      assertThat(split.at()).isGreaterThan(bytes.length / 2);
      assertThat(bytes[(int) split.at() - 1]).isEqualTo((byte) '\n');
      for (int i = 0; i < split.at(); i++) {
        assertThat(bytes[i]).as("byte %s of round %s", i, round).isNotEqualTo((byte) '"');
      }
      List<Line> whole = read(new CsvRecords(Files.newInputStream(file)));
      List<Line> head = read(new CsvRecords(CsvSplit.range(file, 0, split.at())));
      List<Line> tail =
          read(new CsvRecords(CsvSplit.range(file, split.at(), Long.MAX_VALUE), split.line()));
      List<Line> joined = new ArrayList<>(head);
      joined.addAll(tail);
      assertThat(joined).as("round %s", round).isEqualTo(whole);
    }
    assertThat(cuts).as("rounds that were cut").isGreaterThan(100);
  }

  @Test
  void aQuoteBeforeTheMiddleMeansNoCut() throws IOException {
    Random random = new Random(7);
    String text = "a,b,c\n\"x\",1,2\n" + text(random, 300, 300).substring(6);
    Path file = Files.writeString(dir.resolve("q.csv"), text);

    assertThat(CsvSplit.find(file, Files.size(file))).isNull();
  }

  @Test
  void noLineFeedPastTheMiddleMeansNoCut() throws IOException {
    Path file = Files.writeString(dir.resolve("cr.csv"), "a,b\r1,2\r3,4\r5,6\r7,8\r");

    assertThat(CsvSplit.find(file, Files.size(file))).isNull();
  }
}
