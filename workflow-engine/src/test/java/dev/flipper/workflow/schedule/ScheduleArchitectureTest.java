package dev.flipper.workflow.schedule;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import dev.flipper.workflow.tokens.DamagedToken;
import dev.flipper.workflow.tokens.DamagedTokenException;

/**
 * Schedule tokens and notification mail work on the {@code TokenMaster} interface and the
 * definitions only, so the engine's apply, the scheduler, the workers and the CLI can use them
 * embedded or over Thrift.
 */
@AnalyzeClasses(
    packages = {"dev.flipper.workflow.schedule", "dev.flipper.workflow.mail"},
    importOptions = ImportOption.DoNotIncludeTests.class)
class ScheduleArchitectureTest {
  @ArchTest
  static final ArchRule onlyTokensDefinitionsJsonAndMail =
      classes()
          .should()
          .onlyDependOnClassesThat(
              resideInAnyPackage(
                      "java..",
                      "dev.flipper.workflow.schedule..",
                      "dev.flipper.workflow.mail..",
                      "dev.flipper.workflow.definition..",
                      "dev.flipper.token",
                      "dev.flipper.text",
                      "com.fasterxml.jackson..",
                      "jakarta.mail..",
                      "javax.net.ssl..",
                      "org.slf4j..",
                      "")
                  // How every read reports a token that does not parse; they use java and slf4j
                  // only.
                  .or(belongToAnyOf(DamagedToken.class, DamagedTokenException.class)))
          .because(
              "no store, no Thrift, no server: the same code runs in every process that talks to a master");
}
