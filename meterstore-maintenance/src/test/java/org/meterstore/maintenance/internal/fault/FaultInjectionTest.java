package org.meterstore.maintenance.internal.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class FaultInjectionTest {
  @Test
  void aHookIsInstalledForTheCallOnlyAndNestedCallsRestoreTheOuterOne() {
    List<String> seen = new ArrayList<>();
    FaultHook outer = (point, table, partition) -> seen.add("outer " + point);
    FaultHook inner = (point, table, partition) -> seen.add("inner " + point);

    assertThat(FaultInjection.current()).isSameAs(FaultHook.NONE);
    String result =
        FaultInjection.during(
            outer,
            () -> {
              FaultInjection.during(inner, () -> currentReaches(FaultPoint.AFTER_LEASE));
              return currentReaches(FaultPoint.AFTER_COMMIT);
            });

    assertThat(result).isEqualTo("AFTER_COMMIT");
    assertThat(seen).containsExactly("inner AFTER_LEASE", "outer AFTER_COMMIT");
    assertThat(FaultInjection.current()).isSameAs(FaultHook.NONE);
  }

  @Test
  void aFailingCallStillUninstallsItsHook() {
    FaultHook hook = (point, table, partition) -> {};
    assertThatThrownBy(
            () ->
                FaultInjection.during(
                    hook,
                    () -> {
                      throw new IllegalStateException("boom");
                    }))
        .hasMessage("boom");
    assertThat(FaultInjection.current()).isSameAs(FaultHook.NONE);
  }

  @Test
  void anotherThreadNeverSeesTheHook() throws Exception {
    FaultHook hook = (point, table, partition) -> {};
    FaultHook elsewhere =
        FaultInjection.during(
            hook, () -> CompletableFuture.supplyAsync(FaultInjection::current).join());
    assertThat(elsewhere).isSameAs(FaultHook.NONE);
  }

  private static String currentReaches(FaultPoint point) {
    FaultInjection.current().reached(point, "t", null);
    return point.name();
  }
}
