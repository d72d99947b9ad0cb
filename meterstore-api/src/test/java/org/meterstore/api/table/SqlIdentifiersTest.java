package org.meterstore.api.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SqlIdentifiersTest {
  @Test
  void quotesEveryIdentifierIncludingReservedWords() {
    assertThat(SqlIdentifiers.quote("from")).isEqualTo("\"from\"");
    assertThat(SqlIdentifiers.qualified("meterstore", "lastgang_2026_03_02_0000"))
        .isEqualTo("\"meterstore\".\"lastgang_2026_03_02_0000\"");
    assertThat(SqlIdentifiers.quoteAll(List.of("malo_id", "to"))).isEqualTo("\"malo_id\", \"to\"");
  }

  @Test
  void refusesAnythingThatIsNotAPlainLowercaseIdentifier() {
    for (String bad : new String[] {"Lastgang", "a\"b", "1x", "", "x".repeat(64), "a b"}) {
      assertThatThrownBy(() -> SqlIdentifiers.quote(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("lowercase identifier");
    }
    assertThatThrownBy(() -> SqlIdentifiers.quote(null))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
