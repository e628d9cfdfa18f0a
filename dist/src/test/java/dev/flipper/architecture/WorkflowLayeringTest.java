package dev.flipper.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchRule;
import dev.flipper.architecture.fixtures.UsesAStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The workflow modules (engine, master, scheduler, worker, UI) use stores only through queue-core's
 * SPIs: the launcher (dist) opens the stores and hands them in. So neither their classes nor their
 * poms' compile or runtime scope reach queue-mysql or queue-redis (and with them HikariCP,
 * Connector/J, H2, Jedis); tests may use them. Lives in dist because dist is the one module that
 * sees every workflow module.
 */
class WorkflowLayeringTest {
  static final Set<String> WORKFLOW_MODULES =
      Set.of(
          "workflow-engine",
          "workflow-master",
          "workflow-scheduler",
          "workflow-worker",
          "workflow-ui");
  static final Set<String> STORAGE_MODULES = Set.of("queue-mysql", "queue-redis");
  private static final String[] STORAGE_LIBRARIES = {
    "com.zaxxer.hikari..", "org.h2..", "com.mysql..", "org.mariadb..", "redis.clients.."
  };

  @Test
  void workflowClassesDoNotUseStorageModules() {
    noStorage(FlipperModules.in(WORKFLOW_MODULES)).check(FlipperModules.mainClasses());
  }

  @Test
  void theRuleCatchesAClassThatUsesAStore() {
    ModuleLayeringTest.assertViolates(
        noStorage(equivalentTo(UsesAStore.class)),
        UsesAStore.class,
        "dev.flipper.queue.mysql.JdbcQueueStore");
  }

  @Test
  void workflowPomsHaveStorageModulesInTestScopeOnly() {
    List<String> violations = new ArrayList<>();
    for (String module : WORKFLOW_MODULES) {
      violations.addAll(storageOutsideTestScope(module, Poms.dependencies(module)));
    }
    assertThat(violations).as("storage modules outside test scope").isEmpty();
  }

  @Test
  void thePomCheckCatchesAStorageModuleInCompileScope() {
    List<Poms.Dependency> dependencies =
        List.of(
            new Poms.Dependency("dev.flipper", "queue-core", "compile"),
            new Poms.Dependency("dev.flipper", "queue-redis", "test"),
            new Poms.Dependency("dev.flipper", "queue-mysql", "compile"));

    assertThat(storageOutsideTestScope("workflow-x", dependencies))
        .containsExactly("workflow-x/pom.xml: queue-mysql in compile scope");
  }

  static ArchRule noStorage(DescribedPredicate<? super JavaClass> workflowClasses) {
    return noClasses()
        .that(workflowClasses)
        .should()
        .dependOnClassesThat(
            FlipperModules.in(STORAGE_MODULES).or(resideInAnyPackage(STORAGE_LIBRARIES)))
        .because(
            "the launcher opens stores and hands the workflow daemons queue-core SPIs (TokenStore, ...)");
  }

  private static List<String> storageOutsideTestScope(
      String module, List<Poms.Dependency> dependencies) {
    return dependencies.stream()
        .filter(d -> d.isFlipper() && STORAGE_MODULES.contains(d.artifactId()) && !d.isTestScope())
        .map(d -> module + "/pom.xml: " + d.artifactId() + " in " + d.scope() + " scope")
        .toList();
  }
}
