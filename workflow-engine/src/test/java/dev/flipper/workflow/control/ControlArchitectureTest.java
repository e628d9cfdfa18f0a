package dev.flipper.workflow.control;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The control operations work on the {@code TokenMaster} interface and the engine, like the engine
 * itself (the archived tokens too: the master serves them), plus the token kinds of workers
 * (heartbeats) and schedules.
 */
@AnalyzeClasses(
    packages = "dev.flipper.workflow.control",
    importOptions = ImportOption.DoNotIncludeTests.class)
class ControlArchitectureTest {
  @ArchTest
  static final ArchRule controlUsesOnlyTheTokenInterface =
      classes()
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage(
              "java..",
              "dev.flipper.workflow.control..",
              "dev.flipper.workflow.engine..",
              "dev.flipper.workflow.tokens..",
              "dev.flipper.workflow.definition..",
              "dev.flipper.workflow.fleet..",
              "dev.flipper.workflow.schedule..",
              "dev.flipper.token",
              "dev.flipper.text",
              "")
          .because("the CLI and the UI run the same operations embedded or over Thrift");
}
