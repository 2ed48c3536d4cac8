package io.sediment.db.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.alwaysTrue;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import io.sediment.db.DBStoreBuilder;
import io.sediment.db.StoreMaintenance;
import io.sediment.db.testing.EachPackage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package rules of hdds-db's main code, checked on its compiled classes.
 *
 * <p>The API is {@code io.sediment.db} (stores, tables, iterators, profile, exceptions, reports),
 * {@code io.sediment.db.codec} (what users implement), {@code io.sediment.db.stats} (tombstone and
 * compaction figures) and {@code io.sediment.db.diagnostics} (leak accounting). The
 * implementation is {@code managed}, {@code rdb}, {@code util} and {@code tombstone}. Two API
 * classes are the bridges into it: {@link DBStoreBuilder} opens a store and
 * {@link StoreMaintenance} works on an unopened directory.
 */
class HddsDbArchitectureTest {

  private static final String ROOT = "io.sediment.db";
  private static final String[] API = {ROOT, ROOT + ".codec", ROOT + ".stats",
      ROOT + ".diagnostics"};
  private static final String[] IMPLEMENTATION = {ROOT + ".managed..", ROOT + ".rdb..",
      ROOT + ".util..", ROOT + ".tombstone.."};

  private static JavaClasses main;

  @BeforeAll
  static void importMainClasses() {
    main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages(ROOT);
  }

  @Test
  void theApiDependsOnTheImplementationOnlyThroughItsTwoBridges() {
    ArchRule rule = noClasses().that().resideInAnyPackage(API)
        .and().doNotBelongToAnyOf(DBStoreBuilder.class, StoreMaintenance.class)
        .should().dependOnClassesThat().resideInAnyPackage(IMPLEMENTATION)
        .because("callers see interfaces, value types and StoreExceptions; only the bridges"
            + " open or maintain a store");
    rule.check(main);
  }

  @Test
  void hddsDbHasNoPackageCycles() {
    ArchRule rule = slices().assignedFrom(EachPackage.under(ROOT)).should().beFreeOfCycles()
        // The bridges are the one sanctioned edge from the API into the implementation, which
        // implements the API: that edge would otherwise close a cycle through every package.
        .ignoreDependency(belongToAnyOf(DBStoreBuilder.class, StoreMaintenance.class),
            alwaysTrue());
    rule.check(main);
  }
}
