package org.meterstore;

import org.meterstore.internal.write.AppendHook;

/**
 * The reliability suite's door to {@link MeterCatalog}'s package-private append seam, so that the
 * production API stays as it is. Test code only.
 */
public final class AppendHooks {
  private AppendHooks() {}

  /** Installs {@code hook} on {@code catalog}'s appends ({@link AppendHook#NONE} removes it). */
  public static void install(MeterCatalog catalog, AppendHook hook) {
    catalog.appendHook(hook);
  }
}
