package org.meterstore.hot.internal.subject;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

class NaturalIdsTest {
  @Test
  void oneSpellingPerPerson() {
    assertThat(NaturalIds.normalise("  kd-4711\t")).isEqualTo("KD-4711");
    assertThat(NaturalIds.normalise("ＫＤ－４７１１")).isEqualTo("KD-4711");
    assertThat(NaturalIds.normalise("straße 1")).isEqualTo("STRASSE 1");
  }

  @Test
  void refusesWithoutRepeatingTheIdentifier() {
    for (String bad : new String[] {"secret\u0007id", "\u0000", "x".repeat(257), "  "}) {
      MeterStoreException e =
          catchThrowableOfType(MeterStoreException.class, () -> NaturalIds.normalise(bad));
      assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT);
      assertThat(e.getMessage()).doesNotContain("secret").doesNotContain("xxxx");
    }
  }

  @Test
  void findsTheIdentifierInTextWhateverItsSpelling() {
    String id = NaturalIds.normalise("kd-4711");
    assertThat(NaturalIds.appearsIn("request by Kd-4711 via mail", id)).isTrue();
    assertThat(NaturalIds.appearsIn("request 2026-17", id)).isFalse();
  }

  static LongStream seeds() {
    return LongStream.range(0, 4).map(i -> 0x10C0_0000L + i);
  }

  /** Lock keys stay within 16 bits, depend on the schema, and spread over the key space. */
  @ParameterizedTest
  @MethodSource("seeds")
  void lockKeysAreSixteenBitsAndSpread(long seed) {
    Random random = new Random(seed);
    Set<Integer> keys = new HashSet<>();
    int differentBySchema = 0;
    for (int i = 0; i < 2000; i++) {
      String id = String.valueOf(10_000_000_000L + random.nextInt(Integer.MAX_VALUE));
      int key = NaturalIds.lockKey("meterstore", id);
      assertThat(key).isBetween(0, 0xffff);
      assertThat(NaturalIds.lockKey("meterstore", id)).isEqualTo(key);
      keys.add(key);
      if (NaturalIds.lockKey("other", id) != key) {
        differentBySchema++;
      }
    }
    // 2000 draws from 65536 buckets: about 30 collisions expected, far fewer than 200
    assertThat(keys.size()).isGreaterThan(1800);
    assertThat(differentBySchema).isGreaterThan(1900);
  }
}
