package org.meterstore.imports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The CSV record reader: fields, nulls, quotes, line ends and fields across its buffer. */
class CsvRecordsTest {
  private static List<List<String>> read(String text) throws IOException {
    List<List<String>> records = new ArrayList<>();
    try (CsvRecords csv = new CsvRecords(new StringReader(text))) {
      for (String[] r = csv.next(); r != null; r = csv.next()) {
        records.add(Arrays.asList(r));
      }
    }
    return records;
  }

  @Test
  void plainFieldsEmptyFieldsAreNullAndLineEndsEitherWay() throws IOException {
    assertThat(read("a,b,c\n1,,3\r\n,x,\n"))
        .containsExactly(
            List.of("a", "b", "c"), Arrays.asList("1", null, "3"), Arrays.asList(null, "x", null));
  }

  @Test
  void quotedFieldsKeepCommasQuotesLineBreaksAndTheEmptyString() throws IOException {
    List<List<String>> records =
        read("\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"\"\nlast,\"\"x\n");
    assertThat(records.get(0)).containsExactly("a,b", "say \"hi\"", "two\nlines", "");
    assertThat(records.get(1)).containsExactly("last", "x");
  }

  @Test
  void theLastRecordNeedsNoLineEnd() throws IOException {
    assertThat(read("1,2\n3,4")).containsExactly(List.of("1", "2"), List.of("3", "4"));
  }

  @Test
  void fieldsAcrossTheBufferBoundaryAreWhole() throws IOException {
    StringBuilder text = new StringBuilder();
    List<List<String>> expected = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      String a = "meter-" + i;
      String b = i % 7 == 0 ? null : Integer.toString(i * 31);
      String c = "x".repeat(i % 13);
      text.append(a).append(',').append(b == null ? "" : b).append(',');
      text.append(i % 5 == 0 ? "\"" + c + "\"" : c).append(i % 2 == 0 ? "\n" : "\r\n");
      expected.add(Arrays.asList(a, b, c.isEmpty() && i % 5 != 0 ? null : c));
    }
    assertThat(read(text.toString())).isEqualTo(expected);
  }

  @Test
  void recordLinesCountLineBreaksInsideQuotes() throws IOException {
    try (CsvRecords csv = new CsvRecords(new StringReader("h\n\"a\nb\"\nc\n"))) {
      csv.next();
      assertThat(csv.recordLine()).isEqualTo(1);
      csv.next();
      assertThat(csv.recordLine()).isEqualTo(2);
      csv.next();
      assertThat(csv.recordLine()).isEqualTo(4);
    }
  }

  @Test
  void anUnclosedQuoteIsRefused() {
    assertThatThrownBy(() -> read("a,\"open\n")).hasMessageContaining("not closed");
  }
}
