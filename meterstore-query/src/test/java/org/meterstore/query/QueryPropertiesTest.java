package org.meterstore.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.time.Instant;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.meterstore.api.MeterStoreException;
import org.meterstore.query.mode.QueryProperties;
import org.meterstore.query.mode.ReadMode;

class QueryPropertiesTest {
  private static Properties props(String... kv) {
    Properties p = new Properties();
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    return p;
  }

  @Test
  void defaultsToTheCurrentState() {
    assertThat(QueryProperties.readMode(new Properties())).isEqualTo(ReadMode.current());
  }

  @Test
  void parsesEveryModeWithItsArgumentAndACeiling() {
    assertThat(
            QueryProperties.readMode(
                props(
                    QueryProperties.MODE, "AS_OF_SNAPSHOT",
                    QueryProperties.SNAPSHOT_ID, "42",
                    QueryProperties.VERSION_CEILING, "20260105000000")))
        .isEqualTo(ReadMode.asOfSnapshot(42).withVersionCeiling(new BigInteger("20260105000000")));
    assertThat(
            QueryProperties.readMode(
                props(QueryProperties.MODE, "as_of_tag", QueryProperties.TAG, "t")))
        .isEqualTo(ReadMode.asOfTag("t"));
    Instant at = Instant.parse("2026-01-05T00:00:00Z");
    assertThat(
            QueryProperties.readMode(
                props(QueryProperties.MODE, "known_at", QueryProperties.INSTANT, at.toString())))
        .isEqualTo(ReadMode.knownAt(at));
    assertThat(QueryProperties.readMode(props(QueryProperties.MODE, "operational")))
        .isEqualTo(ReadMode.operational());
  }

  @Test
  void refusesUnknownModesAndMissingArguments() {
    assertThatThrownBy(() -> QueryProperties.readMode(props(QueryProperties.MODE, "yesterday")))
        .isInstanceOf(MeterStoreException.class)
        .hasMessageContaining("one of current");
    assertThatThrownBy(() -> QueryProperties.readMode(props(QueryProperties.MODE, "as_of_time")))
        .hasMessageContaining(QueryProperties.INSTANT);
    assertThatThrownBy(
            () ->
                QueryProperties.readMode(
                    props(QueryProperties.MODE, "known_at", QueryProperties.INSTANT, "yesterday")))
        .hasMessageContaining("ISO-8601");
    assertThatThrownBy(() -> QueryProperties.readMode(props(QueryProperties.VERSION_CEILING, "-1")))
        .hasMessageContaining("version ceiling");
  }

  @Test
  void aModeCarriesExactlyItsOwnArguments() {
    assertThatThrownBy(() -> new ReadMode(ReadMode.Kind.CURRENT, 1L, null, null, null))
        .hasMessageContaining("not used by CURRENT");
    assertThat(ReadMode.asOfTag("x").describe()).isEqualTo("AS_OF_TAG(x)");
  }

  @Test
  void systemAtIsAnInstantOrAbsentAndNowIsLeftToTheDriver() {
    assertThat(QueryProperties.systemAt(new Properties())).isEmpty();
    assertThat(QueryProperties.systemAt(props(QueryProperties.SYSTEM_AT, " 2026-02-01T00:00:00Z")))
        .contains(Instant.parse("2026-02-01T00:00:00Z"));
    assertThatThrownBy(() -> QueryProperties.systemAt(props(QueryProperties.SYSTEM_AT, "now")))
        .isInstanceOf(MeterStoreException.class)
        .hasMessageContaining("Invalid meterstore.system_at: 'now'")
        .hasMessageContaining("the jdbc:meterstore: driver also accepts now");
  }
}
