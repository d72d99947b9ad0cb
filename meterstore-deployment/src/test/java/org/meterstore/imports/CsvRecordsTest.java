package org.meterstore.imports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The CSV record reader: fields, nulls, quotes, line ends, UTF-8, a byte order mark, fields across
 * its buffer and the texts it remembers per column.
 */
class CsvRecordsTest {
  private static CsvRecords csv(String text, int bufferSize) {
    return new CsvRecords(
        new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), bufferSize);
  }

  private static List<List<String>> read(String text) throws IOException {
    return read(text, CsvRecords.BUFFER);
  }

  private static List<List<String>> read(String text, int bufferSize) throws IOException {
    List<List<String>> records = new ArrayList<>();
    try (CsvRecords csv = csv(text, bufferSize)) {
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
    // every field and line end split at every place a tiny buffer can split it
    for (int size : new int[] {1, 2, 3, 7, 64}) {
      assertThat(read(text.substring(0, 4_000), size)).isEqualTo(read(text.substring(0, 4_000)));
    }
  }

  @Test
  void randomFieldsOfEveryLengthComeBackAsWritten() throws IOException {
    java.util.Random random = new java.util.Random(42);
    String alphabet = "abc019.:-TZ ,\"\r\näü€";
    StringBuilder text = new StringBuilder();
    List<List<String>> expected = new ArrayList<>();
    for (int r = 0; r < 3_000; r++) {
      List<String> record = new ArrayList<>();
      int fields = 1 + random.nextInt(18);
      for (int f = 0; f < fields; f++) {
        int length = random.nextInt(4) == 0 ? 0 : random.nextInt(30);
        StringBuilder field = new StringBuilder();
        boolean plain = random.nextBoolean();
        for (int i = 0; i < length; i++) {
          field.append(
              plain
                  ? "abc019.:-TZ".charAt(random.nextInt(11))
                  : alphabet.charAt(random.nextInt(alphabet.length())));
        }
        String v = field.toString();
        boolean quote = !plain || random.nextInt(10) == 0;
        if (f > 0) {
          text.append(',');
        }
        if (quote) {
          text.append('"').append(v.replace("\"", "\"\"")).append('"');
        } else {
          text.append(v);
        }
        record.add(v.isEmpty() && !quote ? null : v);
      }
      if (record.size() == 1 && record.get(0) == null) {
        record.set(0, "x");
        text.append('x');
      }
      text.append(random.nextBoolean() ? "\n" : "\r\n");
      expected.add(record);
    }
    for (int size : new int[] {3, 5, 8, 13, 100, CsvRecords.BUFFER}) {
      assertThat(read(text.toString(), size)).as("buffer of %d bytes", size).isEqualTo(expected);
    }
  }

  @Test
  void utf8TextIsDecodedWholeWhereverTheBufferEnds() throws IOException {
    String text = "Zähler,\"Straße, 5\",€,日本\r\nÄ,,\"\"\"ü\"\"\",x\n";
    List<List<String>> expected =
        List.of(List.of("Zähler", "Straße, 5", "€", "日本"), Arrays.asList("Ä", null, "\"ü\"", "x"));
    for (int size = 1; size <= 12; size++) {
      assertThat(read(text, size)).as("buffer of %d bytes", size).isEqualTo(expected);
    }
  }

  @Test
  void aByteOrderMarkAtTheStartIsSkipped() throws IOException {
    for (int size : new int[] {1, 2, 3, 4, CsvRecords.BUFFER}) {
      assertThat(read("\uFEFFmalo_id,value\n1,2\n", size))
          .containsExactly(List.of("malo_id", "value"), List.of("1", "2"));
    }
    // only at the start: elsewhere it is text
    assertThat(read("a\n\uFEFFb\n").get(1)).containsExactly("\uFEFFb");
  }

  @Test
  void aColumnsRepeatedTextsAreOneStringAndDistinctOnesStayRight() throws IOException {
    StringBuilder text = new StringBuilder();
    int rows = CsvRecords.Texts.WINDOW * 8;
    for (int i = 0; i < rows; i++) {
      text.append("KWH,").append(i).append('.').append(i % 997).append(",\"q\"\n");
    }
    try (CsvRecords csv = csv(text.toString(), 5_000)) {
      String[] first = csv.next();
      for (int i = 1; i < rows; i++) {
        String[] r = csv.next();
        assertThat(r[0]).isSameAs(first[0]);
        assertThat(r[2]).isSameAs(first[2]);
        // the values do not repeat: the column stops remembering, and every value is still read
        assertThat(r[1]).isEqualTo(i + "." + (i % 997));
      }
      assertThat(csv.next()).isNull();
    }
  }

  @Test
  void nearlyEqualTextsAnywhereInTheirArraysAreToldApart() {
    java.util.Random random = new java.util.Random(9);
    CsvRecords.Texts texts = new CsvRecords.Texts();
    for (int i = 0; i < 20_000; i++) {
      int n = random.nextInt(21);
      byte[] text = new byte[n];
      for (int k = 0; k < n; k++) {
        text[k] = (byte) "ab0".charAt(random.nextInt(3));
      }
      // the text at the start, the middle or the very end of a larger array
      int before = random.nextInt(9);
      int after = random.nextBoolean() ? 0 : random.nextInt(9);
      byte[] array = new byte[before + n + after];
      random.nextBytes(array);
      System.arraycopy(text, 0, array, before, n);
      String got = texts.get(array, before, before + n);
      String expected = new String(text, StandardCharsets.US_ASCII);
      assertThat(got).isEqualTo(expected);
    }
  }

  @Test
  void aColumnRemembersNoMoreThanItsLimit() {
    CsvRecords.Texts texts = new CsvRecords.Texts();
    byte[][] keys = new byte[CsvRecords.Texts.LIMIT * 3][];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = ("2026-01-01T00:" + i).getBytes(StandardCharsets.UTF_8);
    }
    // every key twice in a row: the second is a hit, so the column keeps remembering
    for (byte[] key : keys) {
      String once = texts.get(key, 0, key.length);
      assertThat(texts.get(key, 0, key.length)).isSameAs(once);
      assertThat(once).isEqualTo(new String(key, StandardCharsets.UTF_8));
    }
  }

  @Test
  void recordLinesCountLineBreaksInsideQuotes() throws IOException {
    try (CsvRecords csv = csv("h\n\"a\nb\"\nc\n", CsvRecords.BUFFER)) {
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
