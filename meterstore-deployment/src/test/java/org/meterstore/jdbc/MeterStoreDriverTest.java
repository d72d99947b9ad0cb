package org.meterstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.query.mode.QueryProperties;
import org.meterstore.query.mode.ReadMode;

class MeterStoreDriverTest {
  @Test
  void parsesTheConfigPathAndProperties() throws Exception {
    DriverUrl url =
        DriverUrl.parse("jdbc:meterstore:config=/etc/meterstore.toml;meterstore.mode=historical");
    assertThat(url.config()).isEqualTo(Path.of("/etc/meterstore.toml"));
    assertThat(url.properties()).isEqualTo(Map.of("meterstore.mode", "historical"));
    assertThat(DriverUrl.parse("jdbc:meterstore:config=meterstore.toml").properties()).isEmpty();
  }

  @Test
  void refusesMalformedUrlsNamingTheExpectedForm() {
    assertThatThrownBy(() -> DriverUrl.parse("jdbc:meterstore:/etc/x.toml"))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("config=<path to meterstore.toml>");
    assertThatThrownBy(() -> DriverUrl.parse("jdbc:meterstore:config="))
        .hasMessageContaining("config=<path");
    assertThatThrownBy(() -> DriverUrl.parse("jdbc:meterstore:config=x.toml;mode"))
        .hasMessageContaining("not key=value");
  }

  @Test
  void theAsOfTagModeOfTheUrlOrThePropertiesReachesTheReadMode() throws Exception {
    DriverUrl url =
        DriverUrl.parse(
            "jdbc:meterstore:config=m.toml;meterstore.mode=as_of_tag;meterstore.tag=settlement-2026-10");
    Properties fromUrl = MeterStoreDriver.properties(url, null, InstantSource.system());
    assertThat(QueryProperties.readMode(fromUrl)).isEqualTo(ReadMode.asOfTag("settlement-2026-10"));

    Properties info = new Properties();
    info.setProperty(QueryProperties.MODE, "as_of_tag");
    info.setProperty(QueryProperties.TAG, "settlement-2026-09");
    Properties fromInfo =
        MeterStoreDriver.properties(
            DriverUrl.parse("jdbc:meterstore:config=m.toml"), info, InstantSource.system());
    assertThat(QueryProperties.readMode(fromInfo))
        .isEqualTo(ReadMode.asOfTag("settlement-2026-09"));

    info.remove(QueryProperties.TAG);
    assertThatThrownBy(
            () ->
                QueryProperties.readMode(
                    MeterStoreDriver.properties(
                        DriverUrl.parse("jdbc:meterstore:config=m.toml"),
                        info,
                        InstantSource.system())))
        .isInstanceOfSatisfying(
            MeterStoreException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT))
        .hasMessageContaining("meterstore.tag");
    assertThat(new MeterStoreDriver().getPropertyInfo("jdbc:meterstore:config=m.toml", null))
        .extracting(p -> p.name)
        .contains(QueryProperties.TAG);
  }

  @Test
  void leavesOtherUrlsToOtherDrivers() throws Exception {
    MeterStoreDriver driver =
        new MeterStoreDriver(
            path -> {
              throw new AssertionError("opened " + path);
            });
    assertThat(driver.acceptsURL("jdbc:postgresql://x/y")).isFalse();
    assertThat(driver.connect("jdbc:postgresql://x/y", new Properties())).isNull();
  }

  @Test
  void isRegisteredThroughTheServiceFile() throws Exception {
    Driver driver = DriverManager.getDriver("jdbc:meterstore:config=x.toml");
    assertThat(driver).isInstanceOf(MeterStoreDriver.class);
  }

  @Test
  void opensTheConfigurationFileItselfAndNamesAMissingOne() {
    assertThatThrownBy(
            () ->
                DriverManager.getConnection("jdbc:meterstore:config=/tmp/no-such-meterstore.toml"))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("/tmp/no-such-meterstore.toml")
        .hasCauseInstanceOf(MeterStoreException.class);
  }

  @Test
  void reportsAnOpenerFailureAsAnSqlException() {
    MeterStoreDriver driver =
        new MeterStoreDriver(
            config -> {
              throw new MeterStoreException(ErrorKind.CONFIG, "Invalid [hot] url in " + config);
            });
    assertThatThrownBy(() -> driver.connect("jdbc:meterstore:config=bad.toml", new Properties()))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("Invalid [hot] url")
        .hasCauseInstanceOf(MeterStoreException.class);
  }

  @Test
  void resolvesSystemAtNowFromItsClockAndPassesAnInstantOn() throws Exception {
    Instant now = Instant.parse("2026-03-01T12:00:00Z");
    InstantSource clock = InstantSource.fixed(now);
    Properties info = new Properties();
    info.setProperty("user", "analyst");

    Properties resolved =
        MeterStoreDriver.properties(
            DriverUrl.parse("jdbc:meterstore:config=x.toml;meterstore.system_at=now"), info, clock);
    assertThat(resolved.getProperty("meterstore.system_at")).isEqualTo("2026-03-01T12:00:00Z");
    assertThat(resolved.getProperty("user")).isEqualTo("analyst");

    info.setProperty("meterstore.system_at", "NOW");
    assertThat(
            MeterStoreDriver.properties(
                    DriverUrl.parse("jdbc:meterstore:config=x.toml"), info, clock)
                .getProperty("meterstore.system_at"))
        .isEqualTo("2026-03-01T12:00:00Z");

    Properties explicit =
        MeterStoreDriver.properties(
            DriverUrl.parse(
                "jdbc:meterstore:config=x.toml;meterstore.system_at=2026-02-01T00:00:00Z"),
            new Properties(),
            clock);
    assertThat(explicit.getProperty("meterstore.system_at")).isEqualTo("2026-02-01T00:00:00Z");
    assertThat(
            MeterStoreDriver.properties(
                    DriverUrl.parse("jdbc:meterstore:config=x.toml"), new Properties(), clock)
                .getProperty("meterstore.system_at"))
        .isNull();
  }

  @Test
  void describesTheSystemAtProperty() {
    DriverPropertyInfo[] info =
        new MeterStoreDriver().getPropertyInfo("jdbc:meterstore:config=x.toml", new Properties());
    assertThat(info).extracting(i -> i.name).contains("meterstore.mode", "meterstore.system_at");
  }
}
