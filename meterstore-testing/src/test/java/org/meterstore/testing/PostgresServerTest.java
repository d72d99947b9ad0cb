package org.meterstore.testing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PostgresServerTest {
  @Test
  void databaseNamesAreLowercaseIdentifiersThatFitPostgresLimit() {
    String name =
        PostgresServer.databaseName(
            "AVeryLongTestClassNameThatGoesOnAndOnBeyondSixtyThreeCharactersIT", 12);
    assertThat(name).matches("t_[a-z0-9_]+").hasSizeLessThanOrEqualTo(63);
    assertThat(name).endsWith("_12_" + ProcessHandle.current().pid());
  }
}
