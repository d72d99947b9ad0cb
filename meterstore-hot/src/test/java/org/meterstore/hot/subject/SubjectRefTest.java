package org.meterstore.hot.subject;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Year;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

class SubjectRefTest {
  @Test
  void parsesACanonicalReferenceAndReadsItsYear() {
    SubjectRef ref = SubjectRef.parse("s2025_Qm9zY2hLb2NoUGFyYWRp-_");
    assertThat(ref.year()).isEqualTo(Year.of(2025));
    assertThat(ref).hasToString("s2025_Qm9zY2hLb2NoUGFyYWRp-_");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "s2025_",
        "s2025_Qm9zY2hLb2NoUGFyYWRp-",
        "s2025_Qm9zY2hLb2NoUGFyYWRp-_x",
        "S2025_Qm9zY2hLb2NoUGFyYWRp-_",
        "s25_Qm9zY2hLb2NoUGFyYWRpZQ+/",
        "s2025-Qm9zY2hLb2NoUGFyYWRp-_",
        "s2025_Qm9zY2hLb2NoUGFyYWRp+/",
        "s1969_Qm9zY2hLb2NoUGFyYWRp-_",
        "s9001_Qm9zY2hLb2NoUGFyYWRp-_",
        "customer-4711"
      })
  void refusesAnythingButACanonicalReference(String text) {
    MeterStoreException e =
        catchThrowableOfType(MeterStoreException.class, () -> SubjectRef.parse(text));
    assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT);
    assertThat(e.getMessage()).startsWith("Invalid subject reference:");
  }

  @Test
  void refusesNull() {
    assertThat(catchThrowableOfType(MeterStoreException.class, () -> SubjectRef.parse(null)).kind())
        .isEqualTo(ErrorKind.INVALID_INPUT);
  }
}
