package dev.feedstore.client;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.codeUnits;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The library's API package speaks of replicas, feeds and sessions only: no type of gRPC, protobuf,
 * SQLite, the stores or the library's internals appears in what a user of {@code
 * dev.feedstore.client} can see (a public or protected member of a public class: its parameters,
 * results, generic arguments, thrown types, and the class's own supertypes). Channel-level
 * integration is {@code dev.feedstore.client.grpc}'s, which this rule does not cover.
 */
class ClientApiTest {
  /** Packages whose types stay out of the API's signatures. */
  static final List<String> HIDDEN = List.of("io.grpc", "com.google.protobuf", "dev.feedstore.proto", "org.sqlite",
      "dev.feedstore.sqlite", "dev.feedstore.store", "org.jooq", "dev.feedstore.core.sync", "dev.feedstore.client.internal");

  private static final JavaClasses MAIN = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.feedstore.client");

  /** What the rule reads: the visible members and supertypes of the visible classes of the API package. */
  static List<ArchRule> rules() {
    return List.of(
        codeUnits().that().areDeclaredInClassesThat(visibleApiClass()).and(visibleMember())
            .should(useNoHiddenType()).allowEmptyShould(true),
        fields().that().areDeclaredInClassesThat(visibleApiClass()).and(visibleField())
            .should(haveNoHiddenType()).allowEmptyShould(true),
        classes().that(visibleApiClass()).should(extendNoHiddenType()));
  }

  @Test
  void theApiPackageShowsNoTransportStorageOrInternalType() {
    for (ArchRule rule : rules()) {
      rule.check(MAIN);
    }
  }

  @Test
  void aHiddenTypeInASignatureIsFound() {
    JavaClasses leaking = new ClassFileImporter().importClasses(LeakingFixture.class, LeakingFixture.Leaks.class);

    List<String> failures = rules().stream().map(rule -> rule.evaluate(leaking))
        .filter(result -> result.hasViolation())
        .flatMap(result -> result.getFailureReport().getDetails().stream()).toList();

    assertTrue(failures.stream().anyMatch(line -> line.contains("status(") && line.contains("io.grpc.Status")),
        String.join("\n", failures));
    assertTrue(failures.stream().anyMatch(line -> line.contains("calls(") && line.contains("io.grpc.Channel")),
        String.join("\n", failures));
    assertTrue(failures.stream().anyMatch(line -> line.contains("SPACES") && line.contains("SpaceSync")),
        String.join("\n", failures));
    assertTrue(failures.stream().anyMatch(line -> line.contains("Leaks") && line.contains("io.grpc.CallCredentials")),
        String.join("\n", failures));
    assertTrue(failures.stream().noneMatch(line -> line.contains("hidden(")), String.join("\n", failures));
  }

  private static DescribedPredicate<JavaClass> visibleApiClass() {
    return DescribedPredicate.describe("public classes of dev.feedstore.client",
        type -> type.getPackageName().equals("dev.feedstore.client") && visible(type.getModifiers())
            && type.getEnclosingClass().map(outer -> visible(outer.getModifiers())).orElse(true));
  }

  private static DescribedPredicate<JavaCodeUnit> visibleMember() {
    return DescribedPredicate.describe("are public or protected", unit -> visible(unit.getModifiers())
        && !unit.getModifiers().contains(JavaModifier.SYNTHETIC) && !unit.getModifiers().contains(JavaModifier.BRIDGE));
  }

  private static DescribedPredicate<JavaField> visibleField() {
    return DescribedPredicate.describe("are public or protected", field -> visible(field.getModifiers()));
  }

  private static boolean visible(Set<JavaModifier> modifiers) {
    return modifiers.contains(JavaModifier.PUBLIC) || modifiers.contains(JavaModifier.PROTECTED);
  }

  private static boolean hidden(JavaClass type) {
    String name = type.getName();
    return HIDDEN.stream().anyMatch(prefix -> name.startsWith(prefix + "."));
  }

  private static ArchCondition<JavaCodeUnit> useNoHiddenType() {
    return new ArchCondition<>("use no type of " + HIDDEN + " in their signatures") {
      @Override
      public void check(JavaCodeUnit unit, ConditionEvents events) {
        Stream<JavaType> types = Stream.concat(Stream.concat(Stream.of(unit.getReturnType()),
            unit.getParameterTypes().stream()), unit.getThrowsClause().getTypes().stream());
        types.flatMap(type -> type.getAllInvolvedRawTypes().stream()).filter(ClientApiTest::hidden).distinct()
            .forEach(type -> events.add(SimpleConditionEvent.violated(unit,
                unit.getFullName() + " shows " + type.getName())));
      }
    };
  }

  private static ArchCondition<JavaField> haveNoHiddenType() {
    return new ArchCondition<>("have no type of " + HIDDEN) {
      @Override
      public void check(JavaField field, ConditionEvents events) {
        field.getType().getAllInvolvedRawTypes().stream().filter(ClientApiTest::hidden).distinct()
            .forEach(type -> events.add(SimpleConditionEvent.violated(field,
                field.getFullName() + " shows " + type.getName())));
      }
    };
  }

  private static ArchCondition<JavaClass> extendNoHiddenType() {
    return new ArchCondition<>("extend or implement no type of " + HIDDEN) {
      @Override
      public void check(JavaClass type, ConditionEvents events) {
        Stream.concat(type.getRawSuperclass().stream(), type.getRawInterfaces().stream())
            .filter(ClientApiTest::hidden)
            .forEach(supertype -> events.add(SimpleConditionEvent.violated(type,
                type.getName() + " extends " + supertype.getName())));
      }
    };
  }
}
