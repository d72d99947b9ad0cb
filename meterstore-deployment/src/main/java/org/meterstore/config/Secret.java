package org.meterstore.config;

import java.util.Objects;

/**
 * A configuration value that must never be printed: a password, an S3 secret key, an erasure key.
 * {@link #toString()} is {@code ****}; only {@link #reveal()} hands the value out, at the one place
 * that passes it to a driver or a key ring. Immutable.
 */
public final class Secret {
  private final String value;

  private Secret(String value) {
    this.value = value;
  }

  /**
   * A secret holding {@code value}.
   *
   * @throws NullPointerException when {@code value} is null
   */
  public static Secret of(String value) {
    return new Secret(Objects.requireNonNull(value, "value"));
  }

  /** The value itself; do not log it. */
  public String reveal() {
    return value;
  }

  /** Always {@code ****}. */
  @Override
  public String toString() {
    return "****";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Secret s && s.value.equals(value);
  }

  @Override
  public int hashCode() {
    return value.hashCode();
  }

  /** The value of {@code secret}, or null when it is null. */
  static String revealOrNull(Secret secret) {
    return secret == null ? null : secret.value;
  }
}
