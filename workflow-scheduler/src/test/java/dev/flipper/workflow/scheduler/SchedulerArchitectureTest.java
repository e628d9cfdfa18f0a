package dev.flipper.workflow.scheduler;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** Schedule math and overrun rules are pure: no master, no clock of their own, no I/O. */
@AnalyzeClasses(
    packages = "dev.flipper.workflow.scheduler",
    importOptions = ImportOption.DoNotIncludeTests.class)
class SchedulerArchitectureTest {

  @ArchTest
  static final ArchRule timeAndOverrunArePure =
      classes()
          .that()
          .resideInAnyPackage(
              "dev.flipper.workflow.scheduler.time..", "dev.flipper.workflow.scheduler.overrun..")
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage(
              "java.lang..",
              "java.time..",
              "java.util..",
              "com.cronutils..",
              "dev.flipper.workflow.definition..",
              "dev.flipper.workflow.scheduler.time..",
              "dev.flipper.workflow.scheduler.overrun..",
              "")
          .because(
              "slots and policies are functions of their arguments, tested without a master or a clock");

  @ArchTest
  static final ArchRule onlyTheAdapterKnowsTheEngine =
      noClasses()
          .that()
          .haveNameNotMatching(
              ".*\\.EngineInstanceStarter(\\$.*)?") // the adapter and its nested classes
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("dev.flipper.workflow.engine..", "dev.flipper.workflow.tokens..")
          .because(
              "the scheduler reaches the engine through InstanceStarter; only its adapter knows the engine and the "
                  + "token data model (instance records and signals, dev.flipper.workflow.tokens)");
}
