package dev.flipper.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The module table of docs/architecture.md is the architecture: it must list exactly the root pom's
 * modules, each with exactly the Flipper modules its pom depends on in compile scope, and only
 * libraries its pom has. Nothing depends on dist, only dist depends on benchmarks (in any scope),
 * and no daemon module depends on another in compile scope.
 */
class ModuleTableTest {
  /** The modules that each hold one daemon; dist hands them opened stores and clients. */
  static final Set<String> DAEMON_MODULES =
      Set.of(
          "queue-server",
          "workflow-master",
          "workflow-scheduler",
          "workflow-worker",
          "workflow-ui");

  @Test
  void theTableListsExactlyTheRootPomsModules() {
    List<String> inTable = ModuleTable.read().stream().map(ModuleTable.Row::module).toList();

    assertThat(inTable)
        .as("modules of the table in " + ModuleTable.DOC)
        .doesNotHaveDuplicates()
        .containsExactlyInAnyOrderElementsOf(Poms.rootModules());
  }

  @Test
  void everyModuleDependsOnExactlyTheFlipperModulesOfItsRow() {
    assertThat(disagreements(ModuleTable.read()))
        .as(
            "rows of "
                + ModuleTable.DOC
                + " that disagree with their module's pom.xml (compile scope)")
        .isEmpty();
  }

  @Test
  void everyLibraryOfARowIsANonTestDependencyOfItsModule() {
    List<String> problems = new ArrayList<>();
    for (ModuleTable.Row row : ModuleTable.read()) {
      Set<String> inPom =
          Poms.dependencies(row.module()).stream()
              .filter(d -> !d.isFlipper() && !d.isTestScope())
              .map(Poms.Dependency::artifactId)
              .collect(Collectors.toSet());
      for (String library : row.libraries()) {
        if (!inPom.contains(library)) {
          problems.add(
              row.module()
                  + ": `"
                  + library
                  + "` is not a compile or runtime dependency of its pom.xml");
        }
      }
    }
    assertThat(problems).as("libraries of " + ModuleTable.DOC).isEmpty();
  }

  @Test
  void nothingDependsOnDistAndOnlyDistDependsOnBenchmarks() {
    List<String> problems = new ArrayList<>();
    for (String module : Poms.rootModules()) {
      for (Poms.Dependency d : Poms.dependencies(module)) {
        if (d.isFlipper() && d.artifactId().equals("dist")) {
          problems.add(module + " depends on dist (" + d.scope() + ")");
        }
        if (d.isFlipper() && d.artifactId().equals("benchmarks") && !module.equals("dist")) {
          problems.add(module + " depends on benchmarks (" + d.scope() + ")");
        }
      }
    }
    assertThat(problems).isEmpty();
  }

  @Test
  void noDaemonModuleDependsOnAnotherInCompileScope() {
    Map<String, List<String>> compileDependencies =
        DAEMON_MODULES.stream()
            .collect(
                Collectors.toMap(m -> m, m -> Poms.compileFlipperModules(Poms.dependencies(m))));

    assertThat(daemonsOnDaemons(compileDependencies))
        .as("daemon modules that depend on another daemon module (compile scope)")
        .isEmpty();
  }

  @Test
  void aDaemonOnAnotherDaemonIsReported() {
    Map<String, List<String>> compileDependencies =
        Map.of(
            "workflow-ui",
                List.of("queue-core", "workflow-engine", "workflow-master", "queue-client"),
            "workflow-worker", List.of("queue-core", "workflow-engine"));

    assertThat(daemonsOnDaemons(compileDependencies))
        .containsExactly("workflow-ui depends on workflow-master");
  }

  /** The check itself: a row that drops a dependency and names another is reported with both. */
  @Test
  void aRowThatDisagreesWithItsPomIsReported() {
    List<ModuleTable.Row> rows = new ArrayList<>(ModuleTable.read());
    int i = rows.stream().map(ModuleTable.Row::module).toList().indexOf("queue-client");
    ModuleTable.Row right = rows.get(i);
    List<String> dependsOn = new ArrayList<>(right.dependsOn());
    String dropped = dependsOn.remove(dependsOn.size() - 1);
    dependsOn.add("queue-server");
    rows.set(i, new ModuleTable.Row(right.module(), dependsOn, right.libraries()));

    assertThat(disagreements(rows))
        .filteredOn(line -> line.startsWith("queue-client:"))
        .singleElement()
        .asString()
        .contains("not in the table: [" + dropped + "]")
        .contains("not in the pom: [queue-server]");
  }

  private static List<String> daemonsOnDaemons(Map<String, List<String>> compileDependencies) {
    List<String> problems = new ArrayList<>();
    compileDependencies.forEach(
        (module, dependencies) -> {
          for (String dependency : dependencies) {
            if (DAEMON_MODULES.contains(module) && DAEMON_MODULES.contains(dependency)) {
              problems.add(module + " depends on " + dependency);
            }
          }
        });
    return problems;
  }

  /** One line per module whose row and pom disagree, saying what is missing on each side. */
  private static List<String> disagreements(List<ModuleTable.Row> rows) {
    Map<String, ModuleTable.Row> byModule =
        rows.stream()
            .collect(Collectors.toMap(ModuleTable.Row::module, Function.identity(), (a, b) -> a));
    List<String> problems = new ArrayList<>();
    for (String module : Poms.rootModules()) {
      ModuleTable.Row row = byModule.get(module);
      if (row == null) {
        problems.add(module + ": no row");
        continue;
      }
      Set<String> inPom =
          new LinkedHashSet<>(Poms.compileFlipperModules(Poms.dependencies(module)));
      Set<String> inTable = new LinkedHashSet<>(row.dependsOn());
      if (!inPom.equals(inTable)) {
        Set<String> missing = new LinkedHashSet<>(inPom);
        missing.removeAll(inTable);
        Set<String> extra = new LinkedHashSet<>(inTable);
        extra.removeAll(inPom);
        problems.add(
            module
                + ": pom.xml has "
                + inPom
                + ", the table "
                + inTable
                + "; not in the table: "
                + missing
                + ", not in the pom: "
                + extra);
      }
    }
    return problems;
  }
}
