package dev.feedstore.client;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The library's dependencies run one way, checked on its compiled classes: {@code client.grpc}
 * (channel-level use) stands on the API and its internals, and nothing below imports it back; and
 * no file of the library takes part in a loop of dependencies, directly or round about. The API
 * package and {@code internal} use each other by design (the API builds on the internals, which
 * speak the API's values and callbacks), so the loop rule is kept file by file, each top-level
 * class with its nested ones, as {@code docs/code-map.md} says.
 */
class ClientPackagesTest {
  private static final String CLIENT = "dev.feedstore.client";

  private static final JavaClasses MAIN = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages(CLIENT);

  /** The gRPC package on top: the API and the internals never import it. */
  static final ArchRule LAYERS = layeredArchitecture().consideringOnlyDependenciesInLayers()
      .layer("grpc").definedBy(CLIENT + ".grpc..")
      .layer("api").definedBy(CLIENT)
      .layer("internal").definedBy(CLIENT + ".internal..")
      .whereLayer("grpc").mayNotBeAccessedByAnyLayer()
      .whereLayer("api").mayOnlyBeAccessedByLayers("grpc", "internal")
      .whereLayer("internal").mayOnlyBeAccessedByLayers("grpc", "api")
      .ensureAllClassesAreContainedInArchitecture();

  /** No two files of the library import each other, directly or round about. */
  static final ArchRule NO_CYCLES = slices().assignedFrom(new SliceAssignment() {
    @Override
    public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
      String name = javaClass.getName();
      return name.startsWith(CLIENT + ".") ? SliceIdentifier.of(name.replaceFirst("\\$.*", ""))
          : SliceIdentifier.ignore();
    }

    @Override
    public String getDescription() {
      return "the library's files (each top-level class with its nested ones)";
    }
  }).should().beFreeOfCycles();

  static final List<ArchRule> RULES = List.of(LAYERS, NO_CYCLES);

  @Test
  void nothingBelowTheGrpcPackageImportsIt() {
    LAYERS.check(MAIN);
  }

  @Test
  void noFilesOfTheLibraryImportEachOther() {
    NO_CYCLES.check(MAIN);
  }

  @Test
  void everyRuleFailsOnAClassThatBreaksIt() {
    JavaClasses withFixture = new ClassFileImporter()
        .withImportOption(location -> !location.contains("/test-classes/") || location.contains("PackageRuleFixture"))
        .importPackages(CLIENT);
    for (ArchRule rule : RULES) {
      EvaluationResult result = rule.evaluate(withFixture);
      String report = String.join("\n", result.getFailureReport().getDetails());
      assertTrue(result.hasViolation() && report.contains("PackageRuleFixture"),
          rule.getDescription() + " should fail on PackageRuleFixture:\n" + report);
    }
  }
}
