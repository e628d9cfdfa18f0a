package dev.flipper.queue.mysql;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * queue-mysql holds the JDBC stores of jobs and of tokens over one JDBC core: it knows queue-core's
 * API and SPI, JDBC and nothing of the servers. The core knows neither store.
 */
@AnalyzeClasses(
    packages = {"dev.flipper.queue.mysql", "dev.flipper.token.jdbc", "dev.flipper.jdbc"},
    importOptions = ImportOption.DoNotIncludeTests.class)
class LayeringTest {
  private static final String[] STORES = {
    "dev.flipper.queue.mysql..", "dev.flipper.token.jdbc..", "dev.flipper.jdbc.."
  };

  @ArchTest
  static final ArchRule theJdbcCoreKnowsNeitherStore =
      noClasses()
          .that()
          .resideInAPackage("dev.flipper.jdbc..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("dev.flipper.queue..", "dev.flipper.token..");

  @ArchTest
  static final ArchRule noServerRedisOrWorkflowCode =
      noClasses()
          .that()
          .resideInAnyPackage(STORES)
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "redis.clients..",
              "org.apache.thrift..",
              "dev.flipper.queue.server..",
              "dev.flipper.queue.redis..",
              "dev.flipper.queue.client..",
              "dev.flipper.queue.memory..",
              "dev.flipper.thrift..",
              "dev.flipper.queue.wire..",
              "dev.flipper.workflow..",
              "dev.flipper.launcher..",
              "dev.flipper.config..",
              "dev.flipper.admin..",
              "dev.flipper.bench..");

  @ArchTest
  static final ArchRule driversOnlyThroughJdbc =
      noClasses()
          .that()
          .resideInAnyPackage(STORES)
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("com.mysql..", "org.h2..", "org.mariadb..");
}
