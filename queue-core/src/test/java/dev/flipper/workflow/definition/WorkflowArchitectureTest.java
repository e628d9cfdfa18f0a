package dev.flipper.workflow.definition;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * Workflow definitions are plain data: they know YAML reading and durations, not the queue or the
 * tokens.
 */
@AnalyzeClasses(
    packages = "dev.flipper.workflow.definition",
    importOptions = ImportOption.DoNotIncludeTests.class)
class WorkflowArchitectureTest {
  @ArchTest
  static final ArchRule definitionsDependOnlyOnTheJdkAndTheYamlReader =
      classes()
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage(
              "java..",
              "dev.flipper.workflow.definition..",
              "dev.flipper.yaml..",
              "dev.flipper.text..",
              "")
          .because(
              "the parser, the validator and the graph are shared by every workflow module and the CLI");
}
