package org.meterstore.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.syntax.elements.ClassesShouldConjunction;
import com.tngtech.archunit.lang.syntax.elements.GivenClassesConjunction;
import java.time.Clock;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The dependency rules of CONTRIBUTING.md and docs/architecture.md, checked over the main classes
 * of every module on this module's classpath. A new module is added to this module's POM so the
 * rules see it. No rule may pass on nothing: ArchUnit fails a rule whose classes are missing (its
 * default, never switched off here), so a rule whose packages dropped off the classpath fails
 * instead of passing silently.
 */
class DependencyRulesTest {
  /** The modules whose code is a library and so must follow library manners. */
  private static final String[] LIBRARY_PACKAGES = {
    "org.meterstore.api..",
    "org.meterstore.hot..",
    "org.meterstore.cold..",
    "org.meterstore.query..",
    "org.meterstore.maintenance..",
    "org.meterstore",
    "org.meterstore.config..",
    "org.meterstore.jdbc..",
    "org.meterstore.internal.."
  };

  /** The packages of the deployment module ({@code meterstore}), whose root is the top package. */
  private static final String[] DEPLOYMENT_PACKAGES = {
    "org.meterstore",
    "org.meterstore.config..",
    "org.meterstore.jdbc..",
    "org.meterstore.internal.."
  };

  private static final List<String> MODULES =
      List.of("api", "hot", "cold", "query", "maintenance", "cli", "testing", "bench");

  private static JavaClasses classes;

  @BeforeAll
  static void importMainClasses() {
    classes = MainClasses.get();
  }

  @Test
  void seesTheMainClassesOfTheModules() {
    assertThat(classes.containPackage("org.meterstore.api")).isTrue();
    assertThat(classes.containPackage("org.meterstore.api.reading")).isTrue();
    assertThat(classes.containPackage("org.meterstore.testing")).isTrue();
    assertThat(classes.containPackage("org.meterstore.jdbc")).isTrue();
    assertThat(classes.containPackage("org.meterstore.config")).isTrue();
  }

  @Test
  void apiDependsOnTheJdkOnly() {
    classes()
        .that()
        .resideInAPackage("org.meterstore.api..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage("java..", "org.meterstore.api..")
        .check(classes);
  }

  @Test
  void hotAndColdNeverDependOnEachOther() {
    rule("org.meterstore.hot..", "org.meterstore.cold..").check(classes);
    rule("org.meterstore.cold..", "org.meterstore.hot..").check(classes);
  }

  @Test
  void noModuleReachesIntoAnotherModulesInternals() {
    for (String module : MODULES) {
      String root = "org.meterstore." + module;
      noClasses()
          .that()
          .resideOutsideOfPackage(root + "..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage(root + "..internal..")
          .because("internal packages are unsupported outside their module")
          .check(classes);
    }
    noClasses()
        .that()
        .resideOutsideOfPackages(DEPLOYMENT_PACKAGES)
        .should()
        .dependOnClassesThat()
        .resideInAPackage("org.meterstore.internal..")
        .because("the deployment module's internal packages are unsupported outside it")
        .check(classes);
  }

  @Test
  void theDeploymentModuleIsTheOnlyOneThatSeesEveryTier() {
    noClasses()
        .that()
        .resideInAnyPackage("org.meterstore.maintenance..", "org.meterstore.query..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(DEPLOYMENT_PACKAGES)
        .because("maintenance and query are libraries the deployment module composes")
        .check(classes);
    noClasses()
        .that()
        .resideInAPackage("org.meterstore.maintenance..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("org.meterstore.query..")
        .because("the maintenance loop archives and reclaims; it never plans a query")
        .check(classes);
  }

  /**
   * The command and the examples reach a deployment through the catalog's entry points ({@code
   * table(name)}, {@code subjects()}, {@code maintenance()}, JDBC), never through the expert door
   * {@code Tiers} or a tier store: what they need becomes a method of an entry point.
   */
  @Test
  void theCommandAndTheExamplesUseOnlyTheEntryPoints() {
    assertThat(classes.containPackage("org.meterstore.cli.command")).isTrue();
    assertThat(classes.containPackage("org.meterstore.examples")).isTrue();
    assertThat(classes.contain(EXPERT_DOOR)).isTrue();
    onlyTheEntryPoints("org.meterstore.cli..", "org.meterstore.examples..").check(classes);
  }

  /** The rule above finds a class that opens the expert door, so it cannot pass on nothing. */
  @Test
  void theEntryPointRuleSeesTheExpertDoor() {
    JavaClasses fixture =
        new ClassFileImporter().importClasses(ExpertDoorFixture.class, DependencyRulesTest.class);
    assertThat(
            onlyTheEntryPoints("org.meterstore.architecture..")
                .evaluate(fixture)
                .getFailureReport()
                .getDetails())
        .anyMatch(d -> d.contains("ExpertDoorFixture") && d.contains(EXPERT_DOOR))
        .noneMatch(d -> d.contains("<" + DependencyRulesTest.class.getName() + "."));
  }

  private static final String EXPERT_DOOR = "org.meterstore.Tiers";

  /** No class in {@code packages} uses the expert door or a tier store directly. */
  private static ArchRule onlyTheEntryPoints(String... packages) {
    return noClasses()
        .that()
        .resideInAnyPackage(packages)
        .should()
        .dependOnClassesThat()
        .haveFullyQualifiedName(EXPERT_DOOR)
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("org.meterstore.hot.HotStore")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("org.meterstore.cold.ColdStore")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("org.meterstore.cold.table.ColdTable")
        .because(
            "the command and the examples use the catalog's entry points (table, subjects,"
                + " maintenance, JDBC); Tiers is the expert door for tests and out-of-band tools");
  }

  @Test
  void modulesHaveNoCycles() {
    slices().matching("org.meterstore.(*)..").should().beFreeOfCycles().check(classes);
  }

  /**
   * Every package is its own slice, sub-packages and the deployment module's top package {@code
   * org.meterstore} included: a cycle between a module's root and its {@code internal} packages, or
   * between two internal packages, fails here.
   */
  @Test
  void packagesHaveNoCycles() {
    slices().matching("org.(**)").namingSlices("$1").should().beFreeOfCycles().check(classes);
  }

  /**
   * The cold executor's parts ({@code query.internal.cold.batch}, {@code .filter}, {@code
   * .aggregate}, {@code .merge}, {@code .unit}, each with whatever lies below it) form no cycle
   * among themselves, and none of them depends on the executor's entry package above them.
   */
  @Test
  void theColdExecutorsPartsAreLayeredBelowItsEntry() {
    slices()
        .matching("org.meterstore.query.internal.cold.(*)..")
        .namingSlices("cold.$1")
        .should()
        .beFreeOfCycles()
        .check(classes);
    noClasses()
        .that()
        .resideInAPackage("org.meterstore.query.internal.cold.*..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("org.meterstore.query.internal.cold")
        .because("the cold executor uses its parts; a part never reaches back into the entry")
        .check(classes);
  }

  @Test
  void onlyTheWallClockReadsTheWallClock() {
    readTheWallClock(
            noClasses()
                .that()
                .resideInAnyPackage(LIBRARY_PACKAGES)
                .and()
                .doNotHaveSimpleName("WallClock"))
        .because("time is a parameter; only the spawned loop's injected InstantSource reads it")
        .check(classes);
  }

  @Test
  void theCommandReadsTheWallClockOnlyThroughWallClock() {
    assertThat(classes.containPackage("org.meterstore.cli")).isTrue();
    readTheWallClock(noClasses().that().resideInAPackage("org.meterstore.cli.."))
        .because("an application edge reads the clock through WallClock, and only without --now")
        .check(classes);
  }

  /** {@code given} should not read the wall clock by any of the JDK's ways to. */
  private static ClassesShouldConjunction readTheWallClock(GivenClassesConjunction given) {
    return given
        .should()
        .callMethod(Instant.class, "now")
        .orShould()
        .callMethod(System.class, "currentTimeMillis")
        .orShould()
        .callMethod(Clock.class, "systemUTC")
        .orShould()
        .callMethod(Clock.class, "systemDefaultZone")
        .orShould()
        .callMethod(InstantSource.class, "system")
        .orShould()
        .callMethod(LocalDate.class, "now")
        .orShould()
        .callMethod(LocalDateTime.class, "now")
        .orShould()
        .callMethod(ZonedDateTime.class, "now")
        .orShould()
        .callMethod(OffsetDateTime.class, "now");
  }

  @Test
  void librariesLogThroughSlf4jAndRecordThroughTheOpenTelemetryApiOnly() {
    noClasses()
        .that()
        .resideInAnyPackage(LIBRARY_PACKAGES)
        .should()
        .accessField(System.class, "out")
        .orShould()
        .accessField(System.class, "err")
        .orShould()
        .dependOnClassesThat()
        .resideInAnyPackage("io.opentelemetry.sdk..")
        .orShould()
        .callMethod("io.opentelemetry.api.GlobalOpenTelemetry", "get")
        .because("a library takes its OpenTelemetry instance as an argument and logs via SLF4J")
        .check(classes);
    noClasses()
        .that()
        .resideInAnyPackage(LIBRARY_PACKAGES)
        .and()
        .doNotImplement(java.sql.Driver.class)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("java.util.logging..")
        .because(
            "libraries log via SLF4J; only a java.sql.Driver must name java.util.logging.Logger"
                + " (getParentLogger)")
        .check(classes);
  }

  @Test
  void onlyTheColdTierReadsIcebergSnapshotMetadata() {
    noClasses()
        .that()
        .resideOutsideOfPackage("org.meterstore.cold..")
        .should()
        .callMethodWhere(readsSnapshotMetadata())
        .because(
            "the cold tier owns W and snapshot metadata: other modules call its typed methods"
                + " (watermark, watermarkAt, archivalCommits, view), never parse a summary, walk"
                + " parents or load the raw table (CONTRIBUTING.md, one home per idea)")
        .check(classes);
  }

  /**
   * A call that reads what only the cold tier may read: the raw Iceberg table behind {@code
   * ColdTable}, a snapshot's summary or parent, the table's snapshot list, current snapshot,
   * snapshot by id, history or refs, any {@code SnapshotUtil} helper, or a catalog's {@code
   * loadTable}.
   */
  private static DescribedPredicate<JavaMethodCall> readsSnapshotMetadata() {
    Map<String, Set<String>> forbidden =
        Map.of(
            "org.meterstore.cold.table.ColdTable", Set.of("icebergTable"),
            "org.apache.iceberg.Snapshot", Set.of("summary", "parentId"),
            "org.apache.iceberg.Table",
                Set.of("snapshots", "currentSnapshot", "snapshot", "history", "refs"),
            "org.apache.iceberg.catalog.Catalog", Set.of("loadTable"));
    return DescribedPredicate.describe(
        "reads Iceberg snapshot metadata or the raw table "
            + forbidden
            + " or any method of org.apache.iceberg.util.SnapshotUtil",
        call -> {
          JavaClass owner = call.getTarget().getOwner();
          if (owner.getName().equals("org.apache.iceberg.util.SnapshotUtil")) {
            return true;
          }
          String method = call.getTarget().getName();
          return forbidden.entrySet().stream()
              .anyMatch(
                  e ->
                      e.getValue().contains(method)
                          && (owner.getName().equals(e.getKey())
                              || owner.isAssignableTo(e.getKey())));
        });
  }

  private static ArchRule rule(String from, String to) {
    return noClasses()
        .that()
        .resideInAPackage(from)
        .should()
        .dependOnClassesThat()
        .resideInAPackage(to);
  }
}
