package org.meterstore.api.table;

/** What a table's readings mean in time (DESIGN § 3.4). One table holds one model. */
public enum TimeModel {
  /**
   * Load profile (Lastgang): {@code to} is set and the value is the energy in {@code [from, to)}.
   */
  INTERVAL,
  /** Register readings (Zählerstandsgang): {@code to} is null, the value is cumulative. */
  POINT
}
