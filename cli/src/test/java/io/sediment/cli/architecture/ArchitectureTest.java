package io.sediment.cli.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.alwaysTrue;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import io.sediment.db.DBStoreBuilder;
import io.sediment.db.StoreMaintenance;
import io.sediment.db.testing.EachPackage;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The rules between modules, checked on the main classes of every module the command ships
 * (hdds-db, om-metadata, om-server, recon-api, cli): the command's classpath holds them all. Each
 * module checks its own packages too (HddsDbArchitectureTest, OmArchitectureTest).
 */
class ArchitectureTest {

  private static JavaClasses shipped;

  @BeforeAll
  static void importShippedClasses() {
    shipped = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(ArchitectureTest::notATestJar)
        .importPackages("io.sediment.db", "io.sediment.om", "io.sediment.recon",
            "io.sediment.cli");
  }

  private static boolean notATestJar(Location location) {
    return !location.contains("-tests.jar") && !location.contains("/test-classes/");
  }

  @Test
  void theCheckSeesEveryShippedModule() {
    for (String pkg : List.of("io.sediment.db.managed", "io.sediment.om.core", "io.sediment.om.grpc",
        "io.sediment.recon", "io.sediment.cli")) {
      assertTrue(shipped.containPackage(pkg), "no main class of " + pkg + " was imported");
    }
  }

  @Test
  void onlyHddsDbUsesItsImplementation() {
    noClasses().that().resideOutsideOfPackage("io.sediment.db..")
        .should().dependOnClassesThat().resideInAnyPackage("io.sediment.db.managed..",
            "io.sediment.db.rdb..", "io.sediment.db.tombstone..")
        .because("every other module sees hdds-db through its API, so its implementation can"
            + " change freely")
        .check(shipped);
  }

  /**
   * om-server's packages: the gRPC service, its request seam, replication, the client, the
   * authorizer and the audit log.
   */
  private static final String[] SERVER = {"io.sediment.om.grpc..", "io.sediment.om.requests..",
      "io.sediment.om.ha..", "io.sediment.om.client..", "io.sediment.om.authz..",
      "io.sediment.om.audit.."};

  @Test
  void theStoreDoesNotKnowItsServers() {
    noClasses().that().resideInAnyPackage("io.sediment.db..", "io.sediment.om..")
        .and().resideOutsideOfPackages(SERVER)
        .should().dependOnClassesThat().resideInAnyPackage(concat(SERVER,
            "io.sediment.recon..", "io.sediment.cli.."))
        .because("a service that embeds the store must not pull in a server")
        .check(shipped);
  }

  @Test
  void aSingleNodeServerDoesNotNeedReplication() {
    noClasses().that().resideInAnyPackage("io.sediment.om.grpc..", "io.sediment.om.requests..",
            "io.sediment.om.client..")
        .should().dependOnClassesThat().resideInAnyPackage("io.sediment.om.ha..",
            "org.apache.ratis..")
        .because("replication plugs into the service through io.sediment.om.requests, so a server"
            + " without it never loads Ratis")
        .check(shipped);
  }

  private static String[] concat(String[] a, String... b) {
    String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  @Test
  void noModuleHasAPackageCycle() {
    slices().assignedFrom(EachPackage.under("io.sediment")).should().beFreeOfCycles()
        // hdds-db's two bridges open the implementation, which implements the API.
        .ignoreDependency(belongToAnyOf(DBStoreBuilder.class, StoreMaintenance.class),
            alwaysTrue())
        .check(shipped);
  }
}
