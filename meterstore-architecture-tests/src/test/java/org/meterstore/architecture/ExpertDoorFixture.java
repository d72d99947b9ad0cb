package org.meterstore.architecture;

import org.meterstore.MeterCatalog;
import org.meterstore.Tiers;

/** A class that opens the expert door: what the entry-point rule must report. Never run. */
final class ExpertDoorFixture {
  private ExpertDoorFixture() {}

  static Object opensTheExpertDoor(MeterCatalog catalog) {
    return Tiers.hot(catalog);
  }
}
