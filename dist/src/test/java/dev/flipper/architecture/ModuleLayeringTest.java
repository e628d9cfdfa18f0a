package dev.flipper.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import dev.flipper.architecture.fixtures.UsesABenchmark;
import dev.flipper.architecture.fixtures.UsesAServerAndPicocli;
import dev.flipper.architecture.fixtures.UsesEngineInternals;
import dev.flipper.architecture.fixtures.UsesStoreInternals;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The layering rules of docs/architecture.md that need every module's classes at once (dist sees
 * them all): who may use an internal package, the engine's internals, the benchmarks, and what the
 * queue SDK and thrift-wire may use. {@link RulesCatchViolations} checks each rule against a
 * fixture class that breaks it, so a rule that no longer bites fails too.
 */
class ModuleLayeringTest {

  /**
   * The exceptions to "a class uses {@code a.b.internal} only from {@code a.b} or below": internal
   * package → the packages (with their subpackages) that may use it too. queue-mysql's JDBC core is
   * shared by the module's two stores.
   */
  static final Map<String, List<String>> SHARED_INTERNALS =
      Map.of(
          "dev.flipper.jdbc.internal",
          List.of("dev.flipper.queue.mysql", "dev.flipper.token.jdbc"));

  /**
   * What the queue SDK may use: its own module, these modules, and these packages (the JDK with its
   * TLS, libthrift, slf4j).
   */
  static final Set<String> QUEUE_CLIENT_MODULES =
      Set.of("queue-client", "queue-core", "thrift-wire");

  static final List<String> QUEUE_CLIENT_PACKAGES =
      List.of("java.", "javax.net.ssl.", "org.apache.thrift.", "org.slf4j.");

  static final Set<String> THRIFT_WIRE_MODULES = Set.of("thrift-wire", "queue-core");

  /** The TLS core (dev.flipper.tls) also issues certificates with Bouncy Castle. */
  static final List<String> THRIFT_WIRE_PACKAGES =
      List.of(
          "java.",
          "javax.naming.",
          "javax.net.ssl.",
          "javax.security.auth.x500.",
          "org.apache.thrift.",
          "org.bouncycastle.",
          "org.slf4j.");

  @Test
  void everyModuleOnDistsClasspathIsRecognised() {
    Set<String> seen =
        FlipperModules.mainClasses().stream()
            .map(FlipperModules::of)
            .flatMap(Optional::stream)
            .collect(Collectors.toCollection(TreeSet::new));
    Set<String> expected = new TreeSet<>(Poms.compileFlipperModules(Poms.dependencies("dist")));
    expected.add("dist");

    assertThat(seen).as("modules whose classes the rules see").containsAll(expected);
    assertThat(
            FlipperModules.mainClasses().stream()
                .filter(c -> FlipperModules.of(c).isEmpty())
                .map(JavaClass::getName))
        .as("dev.flipper classes of no known module")
        .isEmpty();
  }

  @Test
  void internalPackagesAreUsedOnlyFromTheirOwnersPackage() {
    internalPackagesStayWithTheirOwners(SHARED_INTERNALS).check(FlipperModules.mainClasses());
  }

  @Test
  void noClassUsesAnInternalPackageOfAnotherModule() {
    internalPackagesStayInTheirModule().check(FlipperModules.mainClasses());
  }

  @Test
  void onlyTheEnginePackageUsesTheEnginesInternals() {
    engineInternalsOnlyFromTheEngine().check(FlipperModules.mainClasses());
  }

  @Test
  void noDaemonOrLibraryModuleUsesTheBenchmarks() {
    benchmarksOnlyFromBenchmarksAndTheBenchCommand().check(FlipperModules.mainClasses());
  }

  @Test
  void queueClientUsesOnlyQueueCoreThriftWireLibthriftSlf4jAndTheJdk() {
    onlyUses(FlipperModules.in("queue-client"), QUEUE_CLIENT_MODULES, QUEUE_CLIENT_PACKAGES)
        .because("applications pull the SDK and its dependencies into their own JVM")
        .check(FlipperModules.mainClasses());
  }

  @Test
  void thriftWireUsesOnlyQueueCoreLibthriftSlf4jAndTheJdk() {
    onlyUses(FlipperModules.in("thrift-wire"), THRIFT_WIRE_MODULES, THRIFT_WIRE_PACKAGES)
        .because(
            "the SDK, the servers and the master's clients share it; it holds no server logic or store")
        .check(FlipperModules.mainClasses());
  }

  /**
   * Each rule against a class of dist's tests that breaks it (fixtures are not part of the checks
   * above).
   */
  @Nested
  class RulesCatchViolations {
    @Test
    void aClassOutsideTheOwnerUsingAnInternalPackage() {
      assertViolates(
          internalPackagesStayWithTheirOwners(SHARED_INTERNALS),
          UsesStoreInternals.class,
          "dev.flipper.queue.mysql.internal.JdbcShardStore");
    }

    @Test
    void theSharedJdbcCoreIsNoExceptionForOtherPackages() {
      assertViolates(
          internalPackagesStayWithTheirOwners(SHARED_INTERNALS),
          UsesStoreInternals.class,
          "dev.flipper.jdbc.internal.Database");
    }

    @Test
    void aClassOfAnotherModuleUsingAnInternalPackage() {
      assertViolates(
          internalPackagesStayInTheirModule(),
          UsesStoreInternals.class,
          "dev.flipper.queue.mysql.internal.JdbcShardStore");
    }

    @Test
    void aClassOutsideTheEngineUsingItsInternals() {
      assertViolates(
          engineInternalsOnlyFromTheEngine(),
          UsesEngineInternals.class,
          "dev.flipper.workflow.engine.internal.Claimer");
    }

    @Test
    void aClassOutsideBenchmarksUsingABenchmark() {
      assertViolates(
          benchmarksOnlyFromBenchmarksAndTheBenchCommand(),
          UsesABenchmark.class,
          "dev.flipper.bench.FaultBenchmark");
    }

    @Test
    void aClassOfTheSdkUsingAServerOrACommandLineLibrary() {
      ArchRule rule =
          onlyUses(
              equivalentTo(UsesAServerAndPicocli.class),
              QUEUE_CLIENT_MODULES,
              QUEUE_CLIENT_PACKAGES);
      assertViolates(rule, UsesAServerAndPicocli.class, "dev.flipper.queue.server.QueueServer");
      assertViolates(rule, UsesAServerAndPicocli.class, "picocli.CommandLine");
    }
  }

  /**
   * A class may use a package {@code a.b.internal} (or below) of Flipper only if it resides in
   * {@code a.b} or below, or in a package the exceptions name for that internal package.
   */
  static ArchRule internalPackagesStayWithTheirOwners(Map<String, List<String>> exceptions) {
    ArchCondition<JavaClass> condition =
        new ArchCondition<>("use an internal package only from the package that owns it") {
          @Override
          public void check(JavaClass origin, ConditionEvents events) {
            for (Dependency d : origin.getDirectDependenciesFromSelf()) {
              String target = d.getTargetClass().getBaseComponentType().getPackageName();
              Optional<String> internal = internalPackage(target);
              if (internal.isEmpty() || !target.startsWith("dev.flipper.")) {
                continue;
              }
              String owner =
                  internal.get().substring(0, internal.get().length() - ".internal".length());
              String from = origin.getPackageName();
              boolean allowed =
                  residesIn(from, owner)
                      || exceptions.getOrDefault(internal.get(), List.of()).stream()
                          .anyMatch(p -> residesIn(from, p));
              if (!allowed) {
                events.add(
                    SimpleConditionEvent.violated(
                        d,
                        d.getDescription()
                            + " (only "
                            + owner
                            + " and below may use "
                            + internal.get()
                            + ")"));
              }
            }
          }
        };
    return classes()
        .that()
        .resideInAPackage("dev.flipper..")
        .should(condition)
        .because(
            "an internal package is its owner's implementation: other packages use the owner's public classes "
                + "(docs/architecture.md, \"Layering rules\")");
  }

  /** No class uses a Flipper internal package that another module holds. */
  static ArchRule internalPackagesStayInTheirModule() {
    ArchCondition<JavaClass> condition =
        new ArchCondition<>("use internal packages of its own module only") {
          @Override
          public void check(JavaClass origin, ConditionEvents events) {
            Optional<String> from = FlipperModules.of(origin);
            for (Dependency d : origin.getDirectDependenciesFromSelf()) {
              JavaClass target = d.getTargetClass().getBaseComponentType();
              String targetPackage = target.getPackageName();
              if (internalPackage(targetPackage).isEmpty()
                  || !targetPackage.startsWith("dev.flipper.")) {
                continue;
              }
              Optional<String> to = FlipperModules.of(target);
              if (from.isEmpty() || !from.equals(to)) {
                events.add(
                    SimpleConditionEvent.violated(
                        d,
                        d.getDescription()
                            + " (module "
                            + from.orElse("?")
                            + " uses an internal package of module "
                            + to.orElse("?")
                            + ")"));
              }
            }
          }
        };
    return classes()
        .that()
        .resideInAPackage("dev.flipper..")
        .should(condition)
        .because(
            "internal packages are left out of the public API (and its javadoc); modules use each other's "
                + "public classes only");
  }

  static ArchRule engineInternalsOnlyFromTheEngine() {
    return noClasses()
        .that()
        .resideInAPackage("dev.flipper..")
        .and()
        .resideOutsideOfPackage("dev.flipper.workflow.engine..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.flipper.workflow.engine.internal..")
        .because(
            "the engine's mechanics are used through WorkflowEngine and the engine package's public classes; "
                + "the shared token data model is dev.flipper.workflow.tokens");
  }

  /**
   * No class outside the benchmarks module uses the benchmarks ({@code dev.flipper.bench}) or
   * queue-mysql's store-level benchmark workload, but dist's {@code flipper bench} command and that
   * workload's own package.
   */
  static ArchRule benchmarksOnlyFromBenchmarksAndTheBenchCommand() {
    return noClasses()
        .that()
        .resideInAPackage("dev.flipper..")
        .and(DescribedPredicate.not(FlipperModules.in("benchmarks")))
        .and()
        .haveNameNotMatching("dev\\.flipper\\.launcher\\.BenchCommand(\\$.*)?")
        .and()
        .resideOutsideOfPackage("dev.flipper.queue.mysql.bench..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.flipper.bench..", "dev.flipper.queue.mysql.bench..")
        .because(
            "benchmarks drive the modules from outside, through public APIs; no daemon or library code path "
                + "reaches them, and only dist's `flipper bench` runs them");
  }

  /**
   * The given classes depend only on classes of the given modules, on classes of packages starting
   * with one of the given prefixes, and on primitives.
   */
  static ArchRule onlyUses(
      DescribedPredicate<? super JavaClass> subjects,
      Set<String> modules,
      List<String> packagePrefixes) {
    ArchCondition<JavaClass> condition =
        new ArchCondition<>(
            "depend only on modules "
                + new TreeSet<>(modules)
                + " and packages "
                + packagePrefixes) {
          @Override
          public void check(JavaClass origin, ConditionEvents events) {
            for (Dependency d : origin.getDirectDependenciesFromSelf()) {
              JavaClass target = d.getTargetClass().getBaseComponentType();
              if (target.isPrimitive()
                  || packagePrefixes.stream().anyMatch(p -> target.getName().startsWith(p))) {
                continue;
              }
              Optional<String> module = FlipperModules.of(target);
              if (module.isEmpty() || !modules.contains(module.get())) {
                events.add(
                    SimpleConditionEvent.violated(
                        d,
                        d.getDescription()
                            + " ("
                            + module.map(m -> "module " + m).orElse("not an allowed library")
                            + ")"));
              }
            }
          }
        };
    return classes().that(subjects).should(condition);
  }

  /** The package's {@code ...internal} prefix, if one of its segments is {@code internal}. */
  static Optional<String> internalPackage(String packageName) {
    List<String> segments = Arrays.asList(packageName.split("\\."));
    int i = segments.indexOf("internal");
    return i < 0 ? Optional.empty() : Optional.of(String.join(".", segments.subList(0, i + 1)));
  }

  private static boolean residesIn(String packageName, String owner) {
    return packageName.equals(owner) || packageName.startsWith(owner + ".");
  }

  /**
   * The rule, checked on the fixture class alone, fails and names the dependency on {@code target}.
   */
  static void assertViolates(ArchRule rule, Class<?> fixture, String target) {
    JavaClasses classes = new ClassFileImporter().importClasses(fixture);
    assertThatThrownBy(() -> rule.check(classes))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining(fixture.getName())
        .hasMessageContaining(target);
  }
}
