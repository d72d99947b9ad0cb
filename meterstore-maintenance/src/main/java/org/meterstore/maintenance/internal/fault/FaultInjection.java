package org.meterstore.maintenance.internal.fault;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * Installs a {@link FaultHook} for the archival runs that the calling thread starts while {@link
 * #during} runs, e.g. {@code FaultInjection.during(hook, () -> loop.runOnce(now))}. Scoped to one
 * thread and one call, like a tracing context, so that a hook never leaks into another test's or
 * another thread's runs (a spawned loop's thread never sees one). Each run reads {@link #current()}
 * once when it has taken its lease and calls that hook on its own thread. Thread-safe.
 */
public final class FaultInjection {
  private static final ThreadLocal<FaultHook> CURRENT = new ThreadLocal<>();

  private FaultInjection() {}

  /**
   * Runs {@code work} on this thread with {@code hook} installed, then restores the hook installed
   * before (none, outside any {@code during}), whether {@code work} returns or throws.
   *
   * @return what {@code work} returned
   */
  public static <T> T during(FaultHook hook, Supplier<T> work) {
    Objects.requireNonNull(hook, "hook");
    Objects.requireNonNull(work, "work");
    FaultHook previous = CURRENT.get();
    CURRENT.set(hook);
    try {
      return work.get();
    } finally {
      if (previous == null) {
        CURRENT.remove();
      } else {
        CURRENT.set(previous);
      }
    }
  }

  /**
   * The hook installed on this thread by the innermost {@link #during}, else {@link
   * FaultHook#NONE}.
   */
  public static FaultHook current() {
    FaultHook hook = CURRENT.get();
    return hook == null ? FaultHook.NONE : hook;
  }
}
