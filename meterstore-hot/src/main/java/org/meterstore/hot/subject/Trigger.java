package org.meterstore.hot.subject;

/** Why a mapping was erased; the value of the {@code trigger} attribute of the erasure counter. */
public enum Trigger {
  /** An Art. 17 GDPR request: {@link Subjects#eraseSubject}. */
  REQUEST("request"),
  /** The retention sweep: {@link Subjects#sweep}. */
  RETENTION("retention");

  private final String attributeValue;

  Trigger(String attributeValue) {
    this.attributeValue = attributeValue;
  }

  /** The lowercase name used in metrics and stored in the trail. */
  public String attributeValue() {
    return attributeValue;
  }

  /** The trigger whose {@link #attributeValue()} is {@code value}. */
  public static Trigger fromAttributeValue(String value) {
    for (Trigger t : values()) {
      if (t.attributeValue.equals(value)) {
        return t;
      }
    }
    throw new IllegalArgumentException("Invalid trigger: " + value + " (request or retention)");
  }
}
