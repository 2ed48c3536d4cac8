package io.sediment.om.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.sediment.db.codec.CodecBuffer;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.proto.om.BucketLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * {@link OmStoreExtension}: a store per test or per class, reopened in place, closed and deleted
 * after, and a test that leaks a resource fails. The fixtures are small test classes run through
 * the JUnit launcher ({@code @Disabled} so that the build's own run skips them).
 */
class OmStoreExtensionTest {

  private static final List<Path> DIRS = new ArrayList<>();
  private static final List<OmMetadataStore> STORES = new ArrayList<>();
  private static CodecBuffer leaked;

  private static TestExecutionSummary run(Class<?> fixture) {
    DIRS.clear();
    STORES.clear();
    LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
        .selectors(selectClass(fixture))
        .configurationParameter("junit.jupiter.conditions.deactivate",
            "org.junit.*DisabledCondition")
        .build();
    Launcher launcher = LauncherFactory.create();
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    launcher.execute(request, listener);
    return listener.getSummary();
  }

  @Disabled("a fixture run by OmStoreExtensionTest")
  @TestMethodOrder(MethodOrderer.MethodName.class)
  static class PerTest {
    @RegisterExtension
    final OmStoreExtension omStore = OmStoreExtension.withOptions(
        () -> OmStoreOptions.defaults().withMaxListSize(7));

    @Test
    void a() {
      OmMetadataStore om = omStore.store();
      DIRS.add(omStore.dir());
      STORES.add(om);
      assertTrue(Files.isDirectory(omStore.dir()));
      om.createVolume("vol", "alice");
      om.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, null, 0);
      OmMetadataStore reopened = omStore.reopen();
      assertSame(reopened, omStore.store());
      assertNotNull(reopened.getBucketInfo("vol", "bkt"), "the reopened store keeps its data");
    }

    @Test
    void b() {
      DIRS.add(omStore.dir());
      STORES.add(omStore.store());
      omStore.store().createVolume("vol", "alice");
    }
  }

  @Test
  void eachTestGetsAFreshStoreThatIsClosedAndDeletedAfterIt() {
    TestExecutionSummary summary = run(PerTest.class);
    assertEquals(2, summary.getTestsSucceededCount(), () -> failures(summary));
    assertEquals(2, DIRS.size());
    assertFalse(DIRS.get(0).equals(DIRS.get(1)), "a directory of its own for each test");
    for (Path dir : DIRS) {
      assertFalse(Files.exists(dir.getParent()), "deleted after the test: " + dir);
    }
  }

  @Disabled("a fixture run by OmStoreExtensionTest")
  @TestMethodOrder(MethodOrderer.MethodName.class)
  static class PerClass {
    @RegisterExtension
    static final OmStoreExtension OM_STORE = OmStoreExtension.withDefaults();

    @Test
    void a() {
      STORES.add(OM_STORE.store());
      DIRS.add(OM_STORE.dir());
      OM_STORE.store().createVolume("vol", "alice");
    }

    @Test
    void b() {
      STORES.add(OM_STORE.store());
      assertNotNull(OM_STORE.store().getVolumeInfo("vol"), "the class shares one store");
    }
  }

  @Test
  void aStaticFieldSharesOneStoreAcrossTheClass() {
    TestExecutionSummary summary = run(PerClass.class);
    assertEquals(2, summary.getTestsSucceededCount(), () -> failures(summary));
    assertSame(STORES.get(0), STORES.get(1));
    assertFalse(Files.exists(DIRS.get(0).getParent()), "deleted after the class");
  }

  @Disabled("a fixture run by OmStoreExtensionTest")
  static class Leaking {
    @RegisterExtension
    final OmStoreExtension omStore = OmStoreExtension.withDefaults();

    @Test
    void leaksABuffer() {
      omStore.store().createVolume("vol", "alice");
      leaked = CodecBuffer.allocateDirect(16);
    }
  }

  @Test
  void aTestThatLeaksAResourceFails() {
    try {
      TestExecutionSummary summary = run(Leaking.class);
      assertEquals(1, summary.getTestsFailedCount(), "the leaking test fails");
      Throwable failure = summary.getFailures().get(0).getException();
      assertTrue(failure instanceof AssertionError && failure.getMessage().contains("leaked"),
          failure.toString());
    } finally {
      if (leaked != null) {
        leaked.release();
      }
    }
  }

  private static String failures(TestExecutionSummary summary) {
    StringBuilder out = new StringBuilder();
    summary.getFailures().forEach(f -> out.append(f.getTestIdentifier().getDisplayName())
        .append(": ").append(f.getException()).append('\n'));
    return out.toString();
  }
}
