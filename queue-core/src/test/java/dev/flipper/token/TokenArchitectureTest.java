package dev.flipper.token;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The token packages: the SPI knows only the API, the API knows no store, and tokens know nothing
 * of jobs.
 */
@AnalyzeClasses(
    packages = "dev.flipper.token",
    importOptions = ImportOption.DoNotIncludeTests.class)
class TokenArchitectureTest {

  @ArchTest
  static final ArchRule theSpiKnowsOnlyTheApi =
      classes()
          .that()
          .resideInAPackage("dev.flipper.token.spi..")
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage(
              "java..",
              "dev.flipper.token",
              "dev.flipper.token.spi..",
              "dev.flipper.history",
              "dev.flipper.text",
              "")
          .because("backends implement the SPI and must not need the service's internals");

  @ArchTest
  static final ArchRule theApiDoesNotDependOnStores =
      noClasses()
          .that()
          .resideInAPackage("dev.flipper.token")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("dev.flipper.token.memory..")
          .because("stores build on the API, not the other way round");

  @ArchTest
  static final ArchRule tokensAreIndependentOfTheQueue =
      noClasses()
          .that()
          .resideInAPackage("dev.flipper.token..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("dev.flipper.queue..")
          .because("the token master and the job queue are separate products sharing a module");
}
