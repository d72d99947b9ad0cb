package org.meterstore.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every URL form a secret hides in (issue #19): masked by {@code url}, named by {@code secretsOf}.
 */
class RedactionTest {
  private static final String PW = "pw-7Hx";

  @Test
  void everyFormOfAPasswordInAUrlIsMaskedAndNamed() {
    List<String> urls =
        List.of(
            "jdbc:postgresql://meter:" + PW + "@db:5432/m",
            "jdbc:postgresql://db/m?password=" + PW,
            "jdbc:postgresql://db/m?user=u&password=" + PW + "&ssl=true",
            "jdbc:postgresql://db/m?PASSWORD=" + PW,
            "jdbc:postgresql://db/m?sslpassword=" + PW,
            "jdbc:postgresql://db/m;password=" + PW,
            "jdbc:sqlserver://db;user=u;password=" + PW,
            "postgresql://meter:" + PW + "@db/m",
            "postgres://meter:" + PW + "@db/m",
            "host=db port=5432 user=u password=" + PW + " dbname=m",
            "host=db password='" + PW + "' dbname=m",
            "host=db password = " + PW,
            "http://db/api?token=" + PW,
            "s3://k:" + PW + "@bucket/prefix");
    for (String url : urls) {
      assertThat(Redaction.url(url)).as(url).doesNotContain(PW).contains("****");
      assertThat(Redaction.secretsOf(url)).as(url).anySatisfy(s -> assertThat(s).contains(PW));
      String message = "Cannot connect to " + url + ": refused";
      RuntimeException scrubbed =
          Redaction.scrub(new IllegalStateException(message), Redaction.secretsOf(url));
      assertThat(scrubbed.getMessage()).as(url).doesNotContain(PW);
    }
  }

  @Test
  void aUrlWithoutSecretsIsShownAsItIs() {
    String url = "jdbc:postgresql://db.internal:5432/metering";
    assertThat(Redaction.url(url)).isEqualTo(url);
    assertThat(Redaction.secretsOf(url)).isEmpty();
    assertThat(Redaction.url("host=db dbname=m")).isEqualTo("host=db dbname=m");
    assertThat(Redaction.url(null)).isNull();
  }

  @Test
  void userInfoIsRecognisedOnlyBeforeThePath() {
    assertThat(Redaction.hasUserInfo("jdbc:postgresql://u:p@db/m")).isTrue();
    assertThat(Redaction.hasUserInfo("http://u@db")).isTrue();
    assertThat(Redaction.hasUserInfo("jdbc:postgresql://db/m?x=a@b")).isFalse();
    assertThat(Redaction.hasUserInfo("jdbc:postgresql://db/m")).isFalse();
    assertThat(Redaction.hasUserInfo(null)).isFalse();
  }
}
