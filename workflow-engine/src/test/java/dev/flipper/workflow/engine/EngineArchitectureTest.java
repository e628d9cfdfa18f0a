package dev.flipper.workflow.engine;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The engine works on the {@code TokenMaster} interface only: no store, no Thrift, no server, so the same code
 * runs embedded and against a remote master.
 */
@AnalyzeClasses(packages = "dev.flipper.workflow.engine", importOptions = ImportOption.DoNotIncludeTests.class)
class EngineArchitectureTest {
  @ArchTest
  static final ArchRule engineUsesOnlyTheTokenInterface = classes()
      .should().onlyDependOnClassesThat()
      .resideInAnyPackage("java..", "dev.flipper.workflow.engine..", "dev.flipper.workflow.tokens..", "dev.flipper.workflow.definition..",
          "dev.flipper.token", "com.fasterxml.jackson..", "org.slf4j..", "")
      .because("workers, the scheduler, the UI and the CLI use the engine in-process or over Thrift alike");
}
