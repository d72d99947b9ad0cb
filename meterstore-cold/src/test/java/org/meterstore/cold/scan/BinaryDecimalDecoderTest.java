package org.meterstore.cold.scan;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Nine-byte two's-complement decimals (Iceberg's {@code decimal(20,0)}) as longs when they fit. */
class BinaryDecimalDecoderTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "0",
        "1",
        "-1",
        "20260105000000",
        "-20260105000000",
        "9223372036854775807",
        "-9223372036854775808",
        "9223372036854775808",
        "-9223372036854775809",
        "99999999999999999999",
        "-99999999999999999999"
      })
  void decodesExactlyOrSaysItDoesNotFit(String value) {
    BigInteger v = new BigInteger(value);
    byte[] nine = nineBytes(v);
    boolean fits = v.bitLength() < 64;
    assertThat(BinaryDecimalDecoder.fitsLong(nine)).isEqualTo(fits);
    if (fits) {
      assertThat(BinaryDecimalDecoder.toLong(nine)).isEqualTo(v.longValueExact());
    }
  }

  private static byte[] nineBytes(BigInteger v) {
    byte[] minimal = v.toByteArray();
    byte[] out = new byte[9];
    byte fill = (byte) (v.signum() < 0 ? -1 : 0);
    java.util.Arrays.fill(out, fill);
    System.arraycopy(minimal, 0, out, 9 - minimal.length, minimal.length);
    return out;
  }
}
