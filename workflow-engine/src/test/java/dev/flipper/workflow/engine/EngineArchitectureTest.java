package dev.flipper.workflow.engine;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The engine works on the {@code TokenMaster} interface only: no store, no Thrift, no server, so
 * the same code runs embedded and against a remote master. Its mechanics ({@code engine.internal})
 * serve the engine package alone; dist's {@code ModuleLayeringTest} checks the same over every
 * module.
 */
@AnalyzeClasses(packages = "dev.flipper", importOptions = ImportOption.DoNotIncludeTests.class)
class EngineArchitectureTest {
  @ArchTest
  static final ArchRule engineUsesOnlyTheTokenInterface =
      classes()
          .that()
          .resideInAPackage("dev.flipper.workflow.engine..")
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage(
              "java..",
              "dev.flipper.workflow.engine..",
              "dev.flipper.workflow.tokens..",
              "dev.flipper.workflow.definition..",
              "dev.flipper.token",
              "dev.flipper.history",
              "dev.flipper.text",
              "com.fasterxml.jackson..",
              "org.slf4j..",
              "")
          .because(
              "workers, the scheduler, the UI and the CLI use the engine in-process or over Thrift alike");

  @ArchTest
  static final ArchRule onlyTheEnginePackageUsesItsInternals =
      noClasses()
          .that()
          .resideOutsideOfPackage("dev.flipper.workflow.engine..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("dev.flipper.workflow.engine.internal..")
          .because(
              "control, fleet, schedule and mail call the engine's public classes and share the token data model "
                  + "of dev.flipper.workflow.tokens; the engine's mechanics stay behind WorkflowEngine");
}
