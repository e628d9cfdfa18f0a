package dev.flipper.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The workflow modules (master, scheduler, worker, UI) use stores only through queue-core's SPIs: the
 * launcher (dist) opens the stores and hands them in. So neither their classes nor their poms' compile
 * scope reach queue-mysql or queue-redis (and with them HikariCP, Connector/J, H2, Jedis); tests may use
 * them. Lives in dist because dist is the one module that sees every workflow module.
 */
class WorkflowLayeringTest {
  private static final List<String> WORKFLOW_MODULES =
      List.of("workflow-master", "workflow-scheduler", "workflow-worker", "workflow-ui");
  private static final List<String> STORAGE_MODULES = List.of("queue-mysql", "queue-redis");

  @Test
  void workflowClassesDoNotUseStorageModules() {
    JavaClasses workflow = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.flipper.workflow");
    assertThat(workflow).as("workflow classes on the classpath").isNotEmpty();

    ArchRule rule = noClasses()
        .that().resideInAPackage("dev.flipper.workflow..")
        .should().dependOnClassesThat().resideInAnyPackage(
            "dev.flipper.queue.mysql..", "dev.flipper.token.jdbc..", "dev.flipper.queue.redis..",
            "com.zaxxer.hikari..", "org.h2..", "com.mysql..", "org.mariadb..", "redis.clients..")
        .because("the launcher opens stores and hands the workflow daemons queue-core SPIs (TokenStore, ...)");
    rule.check(workflow);
  }

  @Test
  void workflowPomsHaveStorageModulesInTestScopeOnly() throws IOException {
    List<String> violations = new ArrayList<>();
    for (String module : WORKFLOW_MODULES) {
      String pom = Files.readString(Path.of("..", module, "pom.xml"));
      for (String dependency : dependencies(pom)) {
        for (String storage : STORAGE_MODULES) {
          if (dependency.contains("<artifactId>" + storage + "</artifactId>")
              && !dependency.contains("<scope>test</scope>")) {
            violations.add(module + "/pom.xml: " + dependency.replaceAll("\\s+", " "));
          }
        }
      }
    }
    assertThat(violations).as("storage modules outside test scope").isEmpty();
  }

  private static List<String> dependencies(String pom) {
    List<String> found = new ArrayList<>();
    Matcher m = Pattern.compile("<dependency>(.*?)</dependency>", Pattern.DOTALL).matcher(pom);
    while (m.find()) {
      found.add(m.group(1));
    }
    return found;
  }
}
