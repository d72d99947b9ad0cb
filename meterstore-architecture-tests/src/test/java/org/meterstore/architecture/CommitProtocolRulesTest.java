package org.meterstore.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The cold tier's commit protocol has one home per part (issue #33): one writer and one parser of
 * the snapshot summary ({@code CommitStamp}), one walk through parents ({@code SnapshotChain}), one
 * commit loop ({@code CommitLoop}). Each rule first requires the one class it allows to make the
 * call, so a rule cannot pass because its subject moved away.
 */
class CommitProtocolRulesTest {
  private static final String STAMP = "org.meterstore.cold.internal.stamp.CommitStamp";
  private static final String CHAIN = "org.meterstore.cold.internal.stamp.SnapshotChain";
  private static final String LOOP = "org.meterstore.cold.internal.commit.CommitLoop";
  private static final String GUARD = "org.meterstore.maintenance.window.TierWatermark";
  private static final String COLD_TABLE = "org.meterstore.cold.table.ColdTable";

  private static JavaClasses classes;

  @BeforeAll
  static void importMainClasses() {
    classes = MainClasses.get();
  }

  @Test
  void oneClassReadsAndWritesTheSnapshotSummary() {
    requireCallFrom(STAMP, call("org.apache.iceberg.Snapshot", "summary"));
    requireCallFrom(STAMP, call("org.apache.iceberg.SnapshotUpdate", "set"));
    noClasses()
        .that()
        .doNotHaveFullyQualifiedName(STAMP)
        .should()
        .accessTargetWhere(call("org.apache.iceberg.Snapshot", "summary"))
        .orShould()
        .accessTargetWhere(call("org.apache.iceberg.SnapshotUpdate", "set"))
        .because("a commit's summary is written and parsed by CommitStamp only")
        .check(classes);
  }

  @Test
  void oneClassWalksThroughParents() {
    requireCallFrom(CHAIN, call("org.apache.iceberg.Snapshot", "parentId"));
    noClasses()
        .that()
        .doNotHaveFullyQualifiedName(CHAIN)
        .should()
        .accessTargetWhere(call("org.apache.iceberg.Snapshot", "parentId"))
        .because("SnapshotChain is the one parent walk, with one policy for a missing parent")
        .check(classes);
  }

  @Test
  void oneLoopCommitsSnapshotUpdates() {
    requireCallFrom(LOOP, call("org.apache.iceberg.PendingUpdate", "commit"));
    noClasses()
        .that()
        .doNotHaveFullyQualifiedName(LOOP)
        .should()
        .accessTargetWhere(
            DescribedPredicate.describe(
                "commit() of an Iceberg snapshot update",
                c ->
                    c.getTarget().getName().equals("commit")
                        && c.getTarget()
                            .getOwner()
                            .isAssignableTo("org.apache.iceberg.SnapshotUpdate")))
        .because("every data commit goes through CommitLoop's retry, swap check and stamp")
        .check(classes);
  }

  @Test
  void wIsReadForADecisionOnlyThroughTheCommittedWatermarkGuard() {
    requireCallFrom(GUARD, call(COLD_TABLE, "watermarkNotBelow"));
    noClasses()
        .that()
        .resideOutsideOfPackages("org.meterstore.cold..", "org.meterstore.query..")
        .and()
        .doNotHaveFullyQualifiedName(GUARD)
        .should()
        .accessTargetWhere(call(COLD_TABLE, "watermark"))
        .orShould()
        .accessTargetWhere(call(COLD_TABLE, "watermarkNotBelow"))
        .because(
            "outside the cold tier and the query engine (which checks the same guard against the"
                + " committed watermark its state read brings), W is read through TierWatermark, so"
                + " no decision can miss a rollback below the committed watermark")
        .check(classes);
  }

  /** A call of (or reference to) {@code method} on {@code owner} or a subtype. */
  private static DescribedPredicate<JavaAccess<?>> call(String owner, String method) {
    return DescribedPredicate.describe(
        owner + "." + method + "()",
        c ->
            c.getTarget().getName().equals(method)
                && c.getTarget().getOwner().isAssignableTo(owner));
  }

  private static void requireCallFrom(String className, DescribedPredicate<JavaAccess<?>> call) {
    assertThat(classes.contain(className)).as(className).isTrue();
    assertThat(classes.get(className).getAccessesFromSelf().stream().anyMatch(call))
        .as(className + " makes the call the rule reserves for it: " + call.getDescription())
        .isTrue();
  }
}
