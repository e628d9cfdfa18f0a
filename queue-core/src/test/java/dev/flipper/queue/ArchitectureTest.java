package dev.flipper.queue;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** queue-core stays a pure library: the JDK, slf4j, snakeyaml and its own code, nothing else. */
@AnalyzeClasses(packages = "dev.flipper", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

  @ArchTest
  static final ArchRule dependsOnlyOnTheJdkSlf4jSnakeyamlAndFlipper =
      classes()
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage(
              "java..",
              "javax.annotation..",
              "org.slf4j..",
              "org.yaml.snakeyaml..",
              "dev.flipper..",
              "")
          .because(
              "queue-core must not pull storage, network or framework libraries into every module; snakeyaml is"
                  + " a pure text parser (no database or network I/O) that the config and workflow files are read with");

  @ArchTest
  static final ArchRule onlyTheYamlPackageUsesSnakeyaml =
      noClasses()
          .that()
          .resideOutsideOfPackage("dev.flipper.yaml..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("org.yaml.snakeyaml..")
          .because(
              "every YAML file is read through dev.flipper.yaml, which gives file:line problems");

  @ArchTest
  static final ArchRule theSpiKnowsOnlyTheApi =
      classes()
          .that()
          .resideInAPackage("dev.flipper.queue.spi..")
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage("java..", "dev.flipper.queue", "dev.flipper.queue.spi..", "")
          .because("backends implement the SPI and must not need the engine's helpers");

  @ArchTest
  static final ArchRule theLifecycleIsNeutral =
      classes()
          .that()
          .resideInAPackage("dev.flipper.lifecycle..")
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage("java..", "dev.flipper.lifecycle..", "")
          .because(
              "every module's daemons, servers and workers use it; it must not pull the queue along");

  @ArchTest
  static final ArchRule theApiDoesNotDependOnImplementations =
      noClasses()
          .that()
          .resideInAPackage("dev.flipper.queue")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("dev.flipper.queue.memory..", "dev.flipper.queue.monitor..")
          .because("stores and the monitor build on the API, not the other way round");

  @ArchTest
  static final ArchRule theWorkerNeedsOnlyTheJobQueueApi =
      classes()
          .that()
          .resideInAPackage("dev.flipper.queue.worker..")
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage(
              "java..",
              "org.slf4j..",
              "dev.flipper.queue",
              "dev.flipper.queue.worker..",
              "dev.flipper.lifecycle..",
              "dev.flipper.text",
              "")
          .because(
              "the worker runs on any JobQueue: the in-process QueueService or ThriftJobQueue of queue-client");
}
