package dev.flipper.queue.client;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The client SDK stays light: it talks to servers over Thrift (thrift-wire's protocol and server
 * addresses) and never reaches into storage, servers or command-line code. dist's {@code
 * ModuleLayeringTest} checks the same by module: queue-core, thrift-wire, libthrift, slf4j and the
 * JDK only.
 */
@AnalyzeClasses(
    packages = "dev.flipper.queue.client",
    importOptions = ImportOption.DoNotIncludeTests.class)
class LayeringTest {

  @ArchTest
  static final ArchRule noStorageOrServerCode =
      noClasses()
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "dev.flipper.queue.spi..",
              "dev.flipper.queue.memory..",
              "dev.flipper.queue.monitor..",
              "dev.flipper.queue.mysql..",
              "dev.flipper.queue.redis..",
              "dev.flipper.queue.server..",
              "com.codahale.metrics..",
              "java.sql..")
          .because(
              "applications embed queue-client; storage and servers are reached only over Thrift");

  @ArchTest
  static final ArchRule noQueueServiceInTheClient =
      noClasses()
          .should()
          .dependOnClassesThat()
          .haveFullyQualifiedName("dev.flipper.queue.QueueService")
          .because("the client calls a server; only the API types of queue-core are shared");

  @ArchTest
  static final ArchRule onlyTheJdkThriftSlf4jQueueCoreAndThriftWire =
      classes()
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage(
              "java..",
              "org.apache.thrift..",
              "org.slf4j..",
              "dev.flipper.queue..",
              "dev.flipper.thrift",
              "dev.flipper.tls",
              "javax.net.ssl..",
              "")
          .because(
              "applications pull this jar and its dependencies (queue-core, thrift-wire, libthrift, slf4j) into "
                  + "their own JVM");

  @ArchTest
  static final ArchRule noCommandLineLibraries =
      noClasses()
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("picocli..", "org.HdrHistogram..")
          .because(
              "the SDK is queue-core, thrift-wire, libthrift and slf4j only; the queue-tool CLI (picocli, "
                  + "HdrHistogram) lives in dist");
}
