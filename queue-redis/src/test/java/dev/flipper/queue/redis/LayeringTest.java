package dev.flipper.queue.redis;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * queue-redis is a storage backend: it knows queue-core's API and SPI, Jedis (with its pool) and
 * slf4j, and nothing of the servers, the other backends or the workflow modules.
 */
@AnalyzeClasses(
    packages = "dev.flipper.queue.redis",
    importOptions = ImportOption.DoNotIncludeTests.class)
class LayeringTest {

  @ArchTest
  static final ArchRule onlyCoreJedisAndLogging =
      classes()
          .that()
          .resideInAPackage("dev.flipper.queue.redis..")
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage(
              "java..",
              "dev.flipper.queue",
              "dev.flipper.queue.spi",
              "dev.flipper.queue.redis..",
              "redis.clients.jedis..",
              "org.apache.commons.pool2..",
              "org.slf4j..");
}
