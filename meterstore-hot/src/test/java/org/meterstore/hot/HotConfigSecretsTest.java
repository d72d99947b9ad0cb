package org.meterstore.hot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.opentelemetry.api.OpenTelemetry;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

/**
 * Issue #19 items 1 and 9, at the library's boundary: a hot store that cannot be opened names where
 * it tried in words a user can read — the URL with its user info and query masked, the user — never
 * the secret, never the configuration record; and so do {@code toString} and a refused URL. Port 1
 * on loopback refuses at once; no server is needed.
 */
class HotConfigSecretsTest {
  private static final String USERINFO = "jdbc:postgresql://meter:S3cret@127.0.0.1:1/metering";
  private static final String QUERY = "jdbc:postgresql://127.0.0.1:1/metering?password=Qu3ry%21s3";

  @Test
  void aStoreThatCannotConnectNamesTheMaskedUrlAndNoSecret() {
    for (String url : new String[] {USERINFO, QUERY}) {
      Throwable thrown =
          catchThrowable(
              () -> HotStore.open(HotConfig.of(url, "meter", "Pa55word"), OpenTelemetry.noop()));
      assertThat(thrown).isInstanceOf(MeterStoreException.class);
      MeterStoreException e = (MeterStoreException) thrown;
      assertThat(e.kind()).isEqualTo(ErrorKind.STORAGE);
      String all = everything(e);
      assertThat(all)
          .doesNotContain("S3cret", "Qu3ry", "Pa55word", "HotConfig[", "HotSettings[")
          .contains("Cannot open the hot store at jdbc:postgresql://", "as user meter");
    }
  }

  @Test
  void toStringAndARefusedUrlMaskUserInfoAndQuery() {
    assertThat(HotConfig.of(USERINFO, "meter", "Pa55word").toString())
        .contains("jdbc:postgresql://****@127.0.0.1:1/metering", "password=****")
        .doesNotContain("S3cret", "Pa55word");
    assertThat(HotConfig.of(QUERY, null, null).shownUrl())
        .isEqualTo("jdbc:postgresql://127.0.0.1:1/metering?****");
    Throwable refused =
        catchThrowable(() -> HotConfig.of("postgres://meter:S3cret@127.0.0.1/x", null, null));
    assertThat(refused).isInstanceOf(MeterStoreException.class);
    assertThat(refused.getMessage())
        .contains("postgres://****@127.0.0.1/x")
        .doesNotContain("S3cret");
  }

  /** Message, causes, suppressed exceptions and stack trace text: all a log could show. */
  private static String everything(Throwable t) {
    StringWriter out = new StringWriter();
    t.printStackTrace(new PrintWriter(out));
    return out.toString();
  }
}
