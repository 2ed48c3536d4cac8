package io.sediment.om.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.sediment.db.testing.EachPackage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package rules of om-metadata's main code, checked on its compiled classes. The direction is
 * facade ({@code io.sediment.om}) and background services, then the feature packages, then
 * {@code listing} and {@code core}, then the hdds-db API.
 */
class OmArchitectureTest {

  private static final String ROOT = "io.sediment.om";

  private static JavaClasses main;

  @BeforeAll
  static void importMainClasses() {
    main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
        .importPackages(ROOT);
  }

  @Test
  void omMetadataHasNoPackageCycles() {
    slices().assignedFrom(EachPackage.under(ROOT)).should().beFreeOfCycles().check(main);
  }

  @Test
  void coreDependsOnNoOtherPackageOfTheNamespace() {
    noClasses().that().resideInAPackage(ROOT + ".core..")
        .should().dependOnClassesThat(resideInAPackage(ROOT + "..")
            .and(resideOutsideOfPackage(ROOT + ".core..")))
        .because("every feature builds on the shared write path, which must not know them")
        .check(main);
  }

  @Test
  void onlyTheFacadeAndTheServicesUseTheFacadePackage() {
    noClasses().that().resideOutsideOfPackages(ROOT, ROOT + ".service..")
        .should().dependOnClassesThat().resideInAPackage(ROOT)
        .because("the facade delegates to the features; a feature that called back through it"
            + " would close a cycle")
        .check(main);
  }

  @Test
  void theNamespaceUsesOnlyTheHddsDbApi() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage("io.sediment.db.managed..",
            "io.sediment.db.rdb..", "io.sediment.db.tombstone..", "org.rocksdb..")
        .because("hdds-db's implementation may change under its API at any time")
        .check(main);
  }

  @Test
  void theNamespaceDoesNotKnowTheServer() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage(ROOT + ".grpc..",
            "io.grpc.netty..", "io.prometheus..")
        .because("a service that embeds the store must not pull in the gRPC server")
        .check(main);
  }
}
