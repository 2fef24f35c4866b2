package dev.feedstore.server;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The server's packages and which may import which, checked on its compiled classes in the build,
 * as Kafka checks its import-control files: {@code docs/code-map.md} draws the same table. A new
 * package, or a new import between packages, fails here until the table says where it stands.
 */
class ServerPackagesTest {
  private static final String SERVER = "dev.feedstore.server";
  private static final String INTERNAL = SERVER + ".internal.";

  /** The one class outside the gRPC edge that uses gRPC: FeedServer's builder takes a {@code ServerBuilder}. */
  static final Set<String> GRPC_OUTSIDE_THE_EDGE = Set.of(SERVER + ".FeedServer");

  private static final JavaClasses MAIN = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages(SERVER);

  /** Each package, and the packages it may import: the packages below it that it needs. */
  static final ArchRule LAYERS = layeredArchitecture().consideringOnlyDependenciesInLayers()
      .layer("server").definedBy(SERVER)
      .layer("streams").definedBy(INTERNAL + "streams..")
      .layer("grpc").definedBy(INTERNAL + "grpc..")
      .layer("http").definedBy(INTERNAL + "http..")
      .layer("requests").definedBy(INTERNAL + "requests..")
      .layer("core").definedBy(INTERNAL + "core..")
      .layer("live").definedBy(INTERNAL + "live..")
      .layer("queries").definedBy(INTERNAL + "queries..")
      .layer("access").definedBy(INTERNAL + "access..")
      .layer("authority").definedBy(INTERNAL + "authority..")
      .layer("append").definedBy(INTERNAL + "append..")
      .layer("spaces").definedBy(INTERNAL + "spaces..")
      .layer("storage").definedBy(INTERNAL + "storage..")
      .layer("errors").definedBy(INTERNAL + "errors..")
      .layer("monitoring").definedBy(INTERNAL + "monitoring..")
      .layer("settings").definedBy(SERVER + ".settings..")
      .whereLayer("streams").mayOnlyAccessLayers("http", "core", "requests", "live", "queries", "access", "authority", "append",
          "spaces", "errors", "monitoring", "settings")
      .whereLayer("grpc").mayOnlyAccessLayers("core", "requests", "live", "queries", "access", "authority", "spaces", "errors",
          "monitoring", "settings")
      .whereLayer("http").mayOnlyAccessLayers("core", "requests", "live", "queries", "access", "authority", "spaces", "errors",
          "monitoring", "settings")
      .whereLayer("requests").mayOnlyAccessLayers("authority", "errors", "settings")
      .whereLayer("core").mayOnlyAccessLayers("live", "queries", "access", "authority", "append", "spaces", "storage", "errors",
          "monitoring", "settings")
      .whereLayer("live").mayOnlyAccessLayers("access", "authority", "spaces", "errors", "monitoring", "settings")
      .whereLayer("queries").mayOnlyAccessLayers("live", "access", "authority", "spaces", "errors", "monitoring", "settings")
      .whereLayer("access").mayOnlyAccessLayers("errors", "monitoring", "settings")
      .whereLayer("authority").mayOnlyAccessLayers("append", "spaces", "errors", "monitoring", "settings")
      .whereLayer("append").mayOnlyAccessLayers("spaces", "errors", "monitoring", "settings")
      .whereLayer("spaces").mayOnlyAccessLayers("monitoring", "settings")
      .whereLayer("storage").mayOnlyAccessLayers("monitoring", "settings")
      .whereLayer("errors").mayOnlyAccessLayers("settings")
      .whereLayer("monitoring").mayNotAccessAnyLayer()
      .whereLayer("settings").mayNotAccessAnyLayer()
      .ensureAllClassesAreContainedInArchitecture();

  /** gRPC only at the gRPC edge. */
  static final ArchRule GRPC = noClasses().that(outside(INTERNAL + "grpc", GRPC_OUTSIDE_THE_EDGE))
      .should().dependOnClassesThat().resideInAPackage("io.grpc..")
      .because("the gRPC edge (" + INTERNAL + "grpc) is the only part of the server that speaks gRPC");

  /** The generated protobuf types only at the gRPC edge. */
  static final ArchRule PROTOBUF = noClasses()
      .that(outside(INTERNAL + "grpc", Set.of()))
      .should().dependOnClassesThat().resideInAnyPackage("dev.feedstore.proto..", "com.google.protobuf..",
          "com.google.rpc..")
      .because("the wire's messages are the gRPC edge's, not the server's model");

  /** No two packages import each other, directly or round about. */
  static final ArchRule NO_CYCLES = slices().matching("dev.feedstore.(**)").should().beFreeOfCycles();

  static final List<ArchRule> RULES = List.of(LAYERS, GRPC, PROTOBUF, NO_CYCLES);

  @Test
  void eachPackageImportsOnlyThePackagesTheTableAllows() {
    LAYERS.check(MAIN);
  }

  @Test
  void onlyTheGrpcEdgeUsesGrpc() {
    GRPC.check(MAIN);
  }

  @Test
  void onlyTheGrpcEdgeAndWireUseTheGeneratedProtobufTypesButForTheNamedClasses() {
    PROTOBUF.check(MAIN);
  }

  @Test
  void noPackagesImportEachOther() {
    NO_CYCLES.check(MAIN);
  }

  @Test
  void everyRuleFailsOnAClassThatBreaksIt() {
    JavaClasses withFixture = new ClassFileImporter()
        .withImportOption(location -> !location.contains("/test-classes/") || location.contains("RuleBreakingFixture"))
        .importPackages(SERVER);
    for (ArchRule rule : RULES) {
      EvaluationResult result = rule.evaluate(withFixture);
      String report = String.join("\n", result.getFailureReport().getDetails());
      assertTrue(result.hasViolation() && report.contains("RuleBreakingFixture"),
          rule.getDescription() + " should fail on RuleBreakingFixture:\n" + report);
    }
  }

  /** The classes outside {@code pkg} (and its subpackages) but for {@code excepted} and their nested classes. */
  private static DescribedPredicate<JavaClass> outside(String pkg, Set<String> excepted) {
    return DescribedPredicate.describe("outside " + pkg + (excepted.isEmpty() ? "" : " but for " + excepted),
        javaClass -> !(javaClass.getPackageName() + ".").startsWith(pkg + ".")
            && excepted.stream().noneMatch(name -> javaClass.getName().equals(name)
                || javaClass.getName().startsWith(name + "$")));
  }
}
