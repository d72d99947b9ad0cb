package org.meterstore.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.commodity.Unit;
import org.meterstore.api.id.Eic;
import org.meterstore.api.id.MaloId;
import org.meterstore.api.id.MarketPartnerId;
import org.meterstore.api.id.MeloId;
import org.meterstore.api.id.ObisCode;
import org.meterstore.api.reading.Quality;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.Version;
import org.meterstore.api.reading.VersionScope;

/**
 * Every parser of the domain, fed arbitrary text, either accepts it or refuses it with {@code
 * INVALID_INPUT} — never a raw {@code NumberFormatException}, {@code DateTimeException}, {@code
 * ArithmeticException} or {@code NullPointerException}.
 */
class BadInputIsAlwaysTypedTest {
  private static final List<Function<String, Object>> PARSERS =
      List.of(
          MaloId::parse,
          MeloId::parse,
          ObisCode::parse,
          MarketPartnerId::parse,
          Eic::parse,
          Resolution::parse,
          Commodity::parse,
          Unit::parse,
          Quality::parse,
          Version::operator,
          VersionScope::parse,
          text -> Reading.builder().value(text));

  /** Characters that appear in the formats, plus the ones that break naive parsers. */
  private static final String ALPHABET =
      "0123456789-:.*PTHMSDYptDEAFZ+ \t\n\u00a0\u0130\u0131\u0660\uff11e,;'\"\\/";

  static Stream<String> texts() {
    Stream<String> edge =
        Stream.of(
            null,
            "",
            " ",
            "PT",
            "P",
            "PT-15M",
            "PT99999999999999999999H",
            "P9999999999Y",
            "1-0:1.8.0*",
            "99999999999999999999999:2026-01",
            "9900000000003:9999999999-01",
            "1e999999999",
            "NaN",
            "٠١٢٣٤٥٦٧٨٩٠");
    return Stream.concat(
        edge, Samples.of(41, 3_000, r -> Samples.string(r, ALPHABET, r.nextInt(40))));
  }

  @ParameterizedTest
  @MethodSource("texts")
  void everyParserAcceptsOrRefusesWithATypedError(String text) {
    for (Function<String, Object> parser : PARSERS) {
      try {
        assertThat(parser.apply(text)).isNotNull();
      } catch (MeterStoreException e) {
        assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT);
        assertThat(e.getMessage()).startsWith("Invalid ");
      }
    }
  }
}
