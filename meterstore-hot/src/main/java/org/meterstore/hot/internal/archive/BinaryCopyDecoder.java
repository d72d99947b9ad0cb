package org.meterstore.hot.internal.archive;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import org.meterstore.api.table.ColumnType;

/**
 * Decodes the rows of a {@code COPY … TO STDOUT (FORMAT binary)} stream into row arrays ({@code
 * String}, {@code Instant}, {@code LocalDate}, {@code BigDecimal}; null for SQL NULL), the same
 * values a result set gives, without the driver's text parsing.
 *
 * <p>Consecutive rows of a partition repeat most values (the unit, the quality, the MaLo id across
 * a meter-day, {@code recorded_at} across a delivery): a field whose bytes equal the previous row's
 * bytes in the same column reuses the previous row's (immutable) value instead of decoding and
 * allocating it again. The memory this keeps is one field per column. Not thread-safe; one decoder
 * may read several streams one after another ({@link #start}).
 */
final class BinaryCopyDecoder {
  private static final byte[] SIGNATURE = {
    'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xFF, '\r', '\n', 0
  };

  /** 2000-01-01T00:00:00Z, PostgreSQL's epoch, in Unix seconds and days. */
  private static final long PG_EPOCH_SECONDS = 946_684_800L;

  private static final long PG_EPOCH_DAYS = 10_957L;
  private static final int NUMERIC_NEGATIVE = 0x4000;
  private static final int NUMERIC_POSITIVE = 0x0000;
  private static final long LONG_LIMIT = (Long.MAX_VALUE - 9_999L) / 10_000L;

  private final ColumnType[] types;
  private final byte[][] lastBytes;
  private final int[] lastLength;
  private final Object[] lastValue;
  private InputStream in;
  private byte[] buffer = new byte[1 << 16];
  private int position;
  private int limit;

  BinaryCopyDecoder(List<ColumnType> types) {
    this.types = types.toArray(new ColumnType[0]);
    this.lastBytes = new byte[this.types.length][];
    this.lastLength = new int[this.types.length];
    this.lastValue = new Object[this.types.length];
  }

  /**
   * Starts reading {@code stream}: checks the signature and skips the header extension.
   *
   * @throws IOException when the stream ends early or is not binary COPY output
   */
  void start(InputStream stream) throws IOException {
    this.in = stream;
    this.position = 0;
    this.limit = 0;
    require(SIGNATURE.length + 8);
    if (!Arrays.equals(buffer, position, position + SIGNATURE.length, SIGNATURE, 0, 11)) {
      throw new IOException("not a binary COPY stream (bad signature)");
    }
    position += SIGNATURE.length;
    int flags = readInt();
    if ((flags & 0x0001_0000) != 0) {
      throw new IOException("binary COPY stream with OIDs is not supported");
    }
    int extension = readInt();
    if (extension < 0) {
      throw new IOException("negative COPY header extension length " + extension);
    }
    skip(extension);
  }

  /**
   * The next row, or null after the trailer.
   *
   * @throws IOException when the stream ends early or a row does not match the columns
   */
  Object[] next() throws IOException {
    require(2);
    int fields = readShort();
    if (fields == -1) {
      return null;
    }
    if (fields != types.length) {
      throw new IOException("COPY row of " + fields + " fields, expected " + types.length);
    }
    Object[] row = new Object[fields];
    for (int i = 0; i < fields; i++) {
      require(4);
      int length = readInt();
      if (length < 0) {
        continue;
      }
      require(length);
      row[i] = field(i, length);
      position += length;
    }
    return row;
  }

  /** The value of column {@code i} whose {@code length} bytes start at {@code position}. */
  private Object field(int i, int length) throws IOException {
    byte[] last = lastBytes[i];
    if (last != null
        && lastLength[i] == length
        && Arrays.equals(buffer, position, position + length, last, 0, length)) {
      return lastValue[i];
    }
    Object value = decode(types[i], length);
    if (last == null || last.length < length) {
      last = new byte[Math.max(length, 16)];
      lastBytes[i] = last;
    }
    System.arraycopy(buffer, position, last, 0, length);
    lastLength[i] = length;
    lastValue[i] = value;
    return value;
  }

  private Object decode(ColumnType type, int length) throws IOException {
    switch (type) {
      case TEXT:
        return new String(buffer, position, length, StandardCharsets.UTF_8);
      case TIMESTAMPTZ:
        expectLength(type, length, 8);
        return timestamp(getLong(position));
      case DATE:
        expectLength(type, length, 4);
        return date(getInt(position));
      case DECIMAL_18_6:
      case DECIMAL_20_0:
        return numeric(length);
      default:
        throw new IllegalStateException("unknown column type " + type);
    }
  }

  private static void expectLength(ColumnType type, int length, int expected) throws IOException {
    if (length != expected) {
      throw new IOException(type + " field of " + length + " bytes, expected " + expected);
    }
  }

  /** Microseconds since PostgreSQL's epoch; the infinities have no {@code Instant}. */
  static Instant timestamp(long micros) throws IOException {
    if (micros == Long.MAX_VALUE || micros == Long.MIN_VALUE) {
      throw new IOException("infinite timestamp in an archived row");
    }
    return Instant.ofEpochSecond(
        PG_EPOCH_SECONDS + Math.floorDiv(micros, 1_000_000L),
        Math.floorMod(micros, 1_000_000L) * 1_000L);
  }

  /** Days since PostgreSQL's epoch; the infinities have no {@code LocalDate}. */
  static LocalDate date(int days) throws IOException {
    if (days == Integer.MAX_VALUE || days == Integer.MIN_VALUE) {
      throw new IOException("infinite date in an archived row");
    }
    return LocalDate.ofEpochDay(PG_EPOCH_DAYS + days);
  }

  /**
   * A binary numeric: digit count, weight (of the first base-10000 digit), sign, display scale,
   * then the base-10000 digits. The result has the display scale, as the text form does.
   */
  private BigDecimal numeric(int length) throws IOException {
    if (length < 8) {
      throw new IOException("numeric field of " + length + " bytes");
    }
    int p = position;
    int digits = getShort(p);
    int weight = (short) getShort(p + 2);
    int sign = getShort(p + 4);
    int scale = getShort(p + 6);
    if (length != 8 + 2 * digits) {
      throw new IOException("numeric field of " + length + " bytes for " + digits + " digits");
    }
    if (sign != NUMERIC_POSITIVE && sign != NUMERIC_NEGATIVE) {
      throw new IOException("numeric NaN or infinity in an archived row");
    }
    return numeric(buffer, p + 8, digits, weight, sign == NUMERIC_NEGATIVE, scale);
  }

  /** The value of {@code digits} base-10000 digits at {@code offset}, with the given scale. */
  static BigDecimal numeric(
      byte[] bytes, int offset, int digits, int weight, boolean negative, int scale) {
    long unscaled = 0;
    BigInteger big = null;
    BigInteger tenThousand = null;
    for (int d = 0; d < digits; d++) {
      int digit = ((bytes[offset + 2 * d] & 0xFF) << 8) | (bytes[offset + 2 * d + 1] & 0xFF);
      if (big == null && unscaled <= LONG_LIMIT) {
        unscaled = unscaled * 10_000L + digit;
      } else {
        if (big == null) {
          big = BigInteger.valueOf(unscaled);
          tenThousand = BigInteger.valueOf(10_000L);
        }
        big = big.multiply(tenThousand).add(BigInteger.valueOf(digit));
      }
    }
    // The digits stand for unscaled × 10000^(weight − digits + 1).
    int exponent = 4 * (weight - digits + 1);
    BigDecimal value =
        big == null ? BigDecimal.valueOf(unscaled, -exponent) : new BigDecimal(big, -exponent);
    if (negative) {
      value = value.negate();
    }
    return value.setScale(scale, RoundingMode.UNNECESSARY);
  }

  private int readShort() {
    int v = (short) getShort(position);
    position += 2;
    return v;
  }

  private int readInt() {
    int v = getInt(position);
    position += 4;
    return v;
  }

  private int getShort(int p) {
    return ((buffer[p] & 0xFF) << 8) | (buffer[p + 1] & 0xFF);
  }

  private int getInt(int p) {
    return ((buffer[p] & 0xFF) << 24)
        | ((buffer[p + 1] & 0xFF) << 16)
        | ((buffer[p + 2] & 0xFF) << 8)
        | (buffer[p + 3] & 0xFF);
  }

  private long getLong(int p) {
    return ((long) getInt(p) << 32) | (getInt(p + 4) & 0xFFFF_FFFFL);
  }

  private void skip(int n) throws IOException {
    int left = n;
    while (left > 0) {
      int step = Math.min(left, buffer.length);
      require(step);
      position += step;
      left -= step;
    }
  }

  /** Makes at least {@code n} unread bytes available from {@code position}. */
  private void require(int n) throws IOException {
    if (limit - position >= n) {
      return;
    }
    if (n > buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.max(n, 2 * buffer.length));
    }
    int unread = limit - position;
    System.arraycopy(buffer, position, buffer, 0, unread);
    position = 0;
    limit = unread;
    while (limit < n) {
      int read = in.read(buffer, limit, buffer.length - limit);
      if (read < 0) {
        throw new EOFException("binary COPY stream ended inside a row");
      }
      limit += read;
    }
  }
}
