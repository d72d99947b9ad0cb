package org.meterstore.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A second class: it must not see what {@link PostgresExtensionIT} created. */
@ExtendWith(PostgresExtension.class)
class FreshDatabasePerClassIT {

  @Test
  void startsWithAnEmptyDatabaseOfItsOwn(TestDatabase db) throws SQLException {
    assertThat(db.name()).startsWith("t_freshdatabaseperclassit_");
    assertThat(PostgresExtensionIT.tables(db)).isEmpty();
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE readings (k text)");
    }
    assertThat(PostgresExtensionIT.tables(db)).containsExactly("readings");
  }
}
