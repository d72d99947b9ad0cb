package org.meterstore.hot.internal.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.meterstore.api.table.ColumnType;

/**
 * The binary COPY decoder against streams encoded here the way PostgreSQL encodes them (seeded
 * random values; the ITs read real PostgreSQL output).
 */
class BinaryCopyDecoderTest {
  private static final List<ColumnType> TYPES =
      List.of(
          ColumnType.TEXT,
          ColumnType.TIMESTAMPTZ,
          ColumnType.DATE,
          ColumnType.DECIMAL_18_6,
          ColumnType.DECIMAL_20_0);

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
  void decodesEveryValueAsTheTextFormWouldWhateverHowTheStreamIsSplit(long seed) throws Exception {
    Random random = new Random(seed);
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      rows.add(
          new Object[] {
            random.nextInt(5) == 0 ? null : text(random),
            random.nextInt(3) == 0 && i > 0 ? rows.get(i - 1)[1] : instant(random),
            random.nextInt(7) == 0 ? null : LocalDate.ofEpochDay(random.nextInt(40_000) - 10_000),
            decimal(random, 18, 6),
            decimal(random, 20, 0)
          });
    }
    byte[] stream = encode(rows);
    for (int split : new int[] {1, 3, 7, 1 << 20}) {
      BinaryCopyDecoder decoder = new BinaryCopyDecoder(TYPES);
      decoder.start(new Trickle(new ByteArrayInputStream(stream), split));
      List<Object[]> seen = new ArrayList<>();
      for (Object[] row = decoder.next(); row != null; row = decoder.next()) {
        seen.add(row);
      }
      assertThat(seen).hasSize(rows.size());
      for (int i = 0; i < rows.size(); i++) {
        // BigDecimal equality includes the scale: the decoder keeps the display scale.
        assertThat(seen.get(i)).as("row %d, split %d", i, split).containsExactly(rows.get(i));
      }
    }
  }

  @Test
  void repeatedFieldsShareOneValueAndADecoderReadsSeveralStreams() throws Exception {
    Object[] row = {
      "00000000001", Instant.parse("2026-03-02T00:15:00Z"), null, new BigDecimal("1.500000"), null
    };
    byte[] stream = encode(List.of(row, row.clone()));
    BinaryCopyDecoder decoder = new BinaryCopyDecoder(TYPES);
    for (int pass = 0; pass < 2; pass++) {
      decoder.start(new ByteArrayInputStream(stream));
      Object[] first = decoder.next();
      Object[] second = decoder.next();
      assertThat(decoder.next()).isNull();
      assertThat(second).containsExactly(row);
      assertThat(second[0]).isSameAs(first[0]);
      assertThat(second[1]).isSameAs(first[1]);
      assertThat(second[3]).isSameAs(first[3]);
    }
  }

  @Test
  void aTruncatedStreamOrAForeignOneIsRefused() throws Exception {
    byte[] stream = encode(List.<Object[]>of(new Object[] {"a", null, null, BigDecimal.ONE, null}));
    BinaryCopyDecoder decoder = new BinaryCopyDecoder(TYPES);
    decoder.start(new ByteArrayInputStream(java.util.Arrays.copyOf(stream, stream.length - 6)));
    assertThatThrownBy(decoder::next).isInstanceOf(EOFException.class);
    assertThatThrownBy(
            () ->
                decoder.start(
                    new ByteArrayInputStream("a\tb\n".repeat(10).getBytes(StandardCharsets.UTF_8))))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("signature");
  }

  @Test
  void numericsOutsideALongAndNegativeTimestampsDecode() throws Exception {
    BigDecimal huge = new BigDecimal("-99999999999999999999");
    assertThat(roundTrip(huge)).isEqualTo(huge);
    assertThat(roundTrip(new BigDecimal("0.000000"))).isEqualTo(new BigDecimal("0.000000"));
    assertThat(roundTrip(new BigDecimal("-0.000100"))).isEqualTo(new BigDecimal("-0.000100"));
    assertThat(roundTrip(new BigDecimal("10000.000000"))).isEqualTo(new BigDecimal("10000.000000"));
    assertThat(BinaryCopyDecoder.timestamp(-1))
        .isEqualTo(Instant.parse("1999-12-31T23:59:59.999999Z"));
  }

  private static BigDecimal roundTrip(BigDecimal value) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    numeric(new DataOutputStream(bytes), value);
    byte[] b = bytes.toByteArray();
    int digits = ((b[4] & 0xFF) << 8) | (b[5] & 0xFF);
    int weight = (short) (((b[6] & 0xFF) << 8) | (b[7] & 0xFF));
    boolean negative = (b[8] & 0x40) != 0;
    int scale = ((b[10] & 0xFF) << 8) | (b[11] & 0xFF);
    return BinaryCopyDecoder.numeric(b, 12, digits, weight, negative, scale);
  }

  private static String text(Random random) {
    String[] pool = {"", "kWh", "Wärme", "1-1:1.29.0", "10000000001", "ß€𝄞"};
    return random.nextBoolean()
        ? pool[random.nextInt(pool.length)]
        : Long.toString(random.nextLong(), 36);
  }

  private static Instant instant(Random random) {
    return Instant.ofEpochSecond(
        random.nextInt(2_000_000_000) - 500_000_000L, random.nextInt(1_000_000) * 1_000L);
  }

  private static BigDecimal decimal(Random random, int precision, int scale) {
    int digits = 1 + random.nextInt(precision);
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < digits; i++) {
      s.append(random.nextInt(4) == 0 ? '0' : (char) ('0' + random.nextInt(10)));
    }
    BigDecimal value = new BigDecimal(new BigInteger(s.toString()), scale);
    return random.nextBoolean() ? value.negate() : value;
  }

  /** Encodes rows as PostgreSQL's binary COPY does. */
  private static byte[] encode(List<Object[]> rows) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.write(new byte[] {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xFF, '\r', '\n', 0});
    out.writeInt(0);
    out.writeInt(3);
    out.write(new byte[] {9, 9, 9});
    for (Object[] row : rows) {
      out.writeShort(row.length);
      for (Object v : row) {
        if (v == null) {
          out.writeInt(-1);
        } else if (v instanceof String s) {
          byte[] b = s.getBytes(StandardCharsets.UTF_8);
          out.writeInt(b.length);
          out.write(b);
        } else if (v instanceof Instant t) {
          out.writeInt(8);
          long micros =
              Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1000);
          out.writeLong(micros - 946_684_800_000_000L);
        } else if (v instanceof LocalDate d) {
          out.writeInt(4);
          out.writeInt((int) (d.toEpochDay() - 10_957));
        } else {
          numeric(out, (BigDecimal) v);
        }
      }
    }
    out.writeShort(-1);
    return bytes.toByteArray();
  }

  /** Length, then PostgreSQL's numeric: base-10000 digits, weight, sign, display scale. */
  private static void numeric(DataOutputStream out, BigDecimal v) throws IOException {
    String plain = v.abs().toPlainString();
    int dot = plain.indexOf('.');
    String whole = dot < 0 ? plain : plain.substring(0, dot);
    String fraction = dot < 0 ? "" : plain.substring(dot + 1);
    whole = "0".repeat((4 - whole.length() % 4) % 4) + whole;
    fraction = fraction + "0".repeat((4 - fraction.length() % 4) % 4);
    List<Integer> digits = new ArrayList<>();
    String all = whole + fraction;
    for (int i = 0; i < all.length(); i += 4) {
      digits.add(Integer.parseInt(all.substring(i, i + 4)));
    }
    int weight = whole.length() / 4 - 1;
    while (!digits.isEmpty() && digits.get(0) == 0) {
      digits.remove(0);
      weight--;
    }
    while (!digits.isEmpty() && digits.get(digits.size() - 1) == 0) {
      digits.remove(digits.size() - 1);
    }
    if (digits.isEmpty()) {
      weight = 0;
    }
    out.writeInt(8 + 2 * digits.size());
    out.writeShort(digits.size());
    out.writeShort(weight);
    out.writeShort(v.signum() < 0 ? 0x4000 : 0);
    out.writeShort(v.scale());
    for (int d : digits) {
      out.writeShort(d);
    }
  }

  /** Serves at most {@code step} bytes per read, as a socket may. */
  private static final class Trickle extends FilterInputStream {
    private final int step;

    Trickle(InputStream in, int step) {
      super(in);
      this.step = step;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return super.read(b, off, Math.min(len, step));
    }
  }
}
