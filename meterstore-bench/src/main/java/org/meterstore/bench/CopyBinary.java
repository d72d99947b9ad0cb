package org.meterstore.bench;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.meterstore.api.table.ColumnType;

/**
 * Rows in PostgreSQL's binary {@code COPY} format ({@code COPY … FROM STDIN (FORMAT binary)}): the
 * header, each row as its field count and length-prefixed fields in the columns' binary send
 * formats ({@code text} as UTF-8, {@code timestamptz} as microseconds and {@code date} as days
 * since 2000-01-01, {@code numeric} as base-10000 digits), then the trailer. The server parses no
 * text: the values arrive as they are stored. The fleet benchmark's second baseline (issue #37):
 * PostgreSQL's fastest way in, beside text {@code COPY}.
 *
 * <p>An {@code Instant} is sent in whole microseconds (a finer one would be cut); the data set has
 * none finer.
 */
final class CopyBinary {
  private static final byte[] SIGNATURE = {
    'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xFF, '\r', '\n', 0
  };

  /** 2000-01-01T00:00:00Z, PostgreSQL's epoch, in Unix seconds and days. */
  private static final long PG_EPOCH_SECONDS = 946_684_800L;

  private static final long PG_EPOCH_DAYS = 10_957L;
  private static final int NUMERIC_NEGATIVE = 0x4000;
  private static final BigInteger TEN_THOUSAND = BigInteger.valueOf(10_000L);

  private final ColumnType[] types;
  private final Out out = new Out();

  CopyBinary(List<ColumnType> types) {
    this.types = types.toArray(new ColumnType[0]);
    out.write(SIGNATURE, 0, SIGNATURE.length);
    out.writeInt(0); // flags: no OIDs
    out.writeInt(0); // no header extension
  }

  /** Appends one row: one value per column, of the column's Java type, null for SQL NULL. */
  void add(Object[] row) {
    if (row.length != types.length) {
      throw new IllegalArgumentException(row.length + " values for " + types.length + " columns");
    }
    out.writeShort(types.length);
    for (int i = 0; i < types.length; i++) {
      Object v = row[i];
      if (v == null) {
        out.writeInt(-1);
        continue;
      }
      switch (types[i]) {
        case TEXT -> {
          byte[] bytes = ((String) v).getBytes(StandardCharsets.UTF_8);
          out.writeInt(bytes.length);
          out.write(bytes, 0, bytes.length);
        }
        case TIMESTAMPTZ -> {
          Instant t = (Instant) v;
          out.writeInt(8);
          out.writeLong(
              Math.addExact(
                  Math.multiplyExact(t.getEpochSecond() - PG_EPOCH_SECONDS, 1_000_000L),
                  t.getNano() / 1_000L));
        }
        case DATE -> {
          out.writeInt(4);
          out.writeInt(Math.toIntExact(((LocalDate) v).toEpochDay() - PG_EPOCH_DAYS));
        }
        case DECIMAL_18_6, DECIMAL_20_0 -> numeric((BigDecimal) v);
        default -> throw new IllegalStateException("unknown column type " + types[i]);
      }
    }
  }

  /** The stream so far with the trailer: what {@code COPY … FROM STDIN (FORMAT binary)} reads. */
  byte[] finish() {
    out.writeShort(-1);
    return out.toByteArray();
  }

  /**
   * A numeric as PostgreSQL sends it: digit count, weight of the first base-10000 digit, sign,
   * display scale, then the digits, leading and trailing zero digits left out.
   */
  private void numeric(BigDecimal value) {
    int scale = Math.max(0, value.scale());
    BigInteger unscaled = value.setScale(scale).unscaledValue().abs();
    // align the decimal point to a base-10000 digit boundary: scale up to a multiple of 4
    int pad = (4 - scale % 4) % 4;
    BigInteger aligned = unscaled.multiply(BigInteger.TEN.pow(pad));
    int fractionDigits = (scale + pad) / 4;
    short[] digits = new short[aligned.toString().length() / 4 + 2];
    int n = 0;
    while (aligned.signum() > 0) {
      BigInteger[] qr = aligned.divideAndRemainder(TEN_THOUSAND);
      digits[n++] = qr[1].shortValue(); // least significant first
      aligned = qr[0];
    }
    int low = 0; // trailing zero digits (least significant) are left out
    while (low < n && digits[low] == 0) {
      low++;
    }
    int count = n - low;
    int weight = count == 0 ? 0 : n - 1 - fractionDigits;
    out.writeInt(8 + 2 * count);
    out.writeShort(count);
    out.writeShort(weight);
    out.writeShort(value.signum() < 0 ? NUMERIC_NEGATIVE : 0);
    out.writeShort(scale);
    for (int d = n - 1; d >= low; d--) {
      out.writeShort(digits[d]);
    }
  }

  /** A byte buffer with big-endian writes. */
  private static final class Out extends ByteArrayOutputStream {
    Out() {
      super(1 << 16);
    }

    void writeShort(int v) {
      write(v >>> 8);
      write(v);
    }

    void writeInt(int v) {
      writeShort(v >>> 16);
      writeShort(v);
    }

    void writeLong(long v) {
      writeInt((int) (v >>> 32));
      writeInt((int) v);
    }
  }
}
