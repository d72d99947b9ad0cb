package org.meterstore.hot.internal.subject;

import java.security.SecureRandom;
import java.time.Year;
import java.util.Base64;
import org.meterstore.hot.subject.SubjectRef;

/**
 * Issues new references: {@code s<year>_} and 128 bits from a {@link SecureRandom} in base64url.
 * Random rather than derived from the identifier, so that nothing short of the registry's mapping
 * row links a reference to a person. Thread-safe ({@code SecureRandom} is).
 */
final class References {
  private static final int RANDOM_BYTES = 16;

  private final SecureRandom random = new SecureRandom();

  SubjectRef next(Year year) {
    byte[] bytes = new byte[RANDOM_BYTES];
    random.nextBytes(bytes);
    return new SubjectRef(
        String.format("s%04d_", year.getValue())
            + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
  }
}
