package dev.flipper.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which Flipper module a class comes from: the module whose {@code target/classes} (or {@code
 * test-classes}) folder or jar holds it, whatever its package. dist's test classpath holds every
 * module but examples, from the reactor's folders or jars or from the local repository's jars.
 */
final class FlipperModules {
  static final List<String> NAMES = Poms.rootModules();
  private static final Pattern FOLDER = Pattern.compile("/([^/]+)/target/(?:test-)?classes/");
  private static final Pattern JAR = Pattern.compile("/([^/]+?)-\\d[^/]*\\.jar!/");

  /** Test folders and test jars are left out: the rules are about what each module ships. */
  private static final ImportOption NO_TEST_JARS =
      (Location location) -> !location.contains("-tests.jar");

  private static JavaClasses main;

  private FlipperModules() {}

  /** Every class in a {@code dev.flipper} package of the classpath's main code, imported once. */
  static synchronized JavaClasses mainClasses() {
    if (main == null) {
      main =
          new ClassFileImporter()
              .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
              .withImportOption(NO_TEST_JARS)
              .importPackages("dev.flipper");
    }
    return main;
  }

  /**
   * The module of a {@code dev.flipper} class; empty for the JDK's, a library's, or one of unknown
   * origin.
   */
  static Optional<String> of(JavaClass javaClass) {
    JavaClass base = javaClass.getBaseComponentType();
    if (base.isPrimitive() || !base.getPackageName().startsWith("dev.flipper")) {
      return Optional.empty();
    }
    return base.getSource().flatMap(source -> ofLocation(source.getUri().toString()));
  }

  static Optional<String> ofLocation(String uri) {
    for (Pattern pattern : List.of(FOLDER, JAR)) {
      Matcher m = pattern.matcher(uri);
      if (m.find() && NAMES.contains(m.group(1))) {
        return Optional.of(m.group(1));
      }
    }
    return Optional.empty();
  }

  /** Classes of one of these modules. */
  static DescribedPredicate<JavaClass> in(Set<String> modules) {
    return DescribedPredicate.describe(
        "are in module " + String.join(" or ", modules),
        c -> of(c).filter(modules::contains).isPresent());
  }

  static DescribedPredicate<JavaClass> in(String module) {
    return in(Set.of(module));
  }
}
