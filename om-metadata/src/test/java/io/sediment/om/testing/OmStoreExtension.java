package io.sediment.om.testing;

import io.sediment.db.testing.LeakCheck;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmStoreOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A fresh {@link OmMetadataStore} in a temporary directory for each test, closed after it, with
 * the test failed when a native object, a buffer or an iterator it opened is still live once
 * the store closed.
 *
 * <pre>{@code
 * @RegisterExtension
 * final OmStoreExtension omStore = OmStoreExtension.withOptions(
 *     () -> OmStoreOptions.defaults().withMaxListSize(50));
 *
 * @BeforeEach
 * void open() {
 *   om = omStore.store();
 * }
 * }</pre>
 *
 * <p>Registered on an instance field, the store lives for one test (opened before the class's
 * {@code @BeforeEach} methods, closed after its {@code @AfterEach} methods); on a static field,
 * for the whole class (opened before its {@code @BeforeAll} methods, closed after its
 * {@code @AfterAll} methods). The options are taken from the supplier at every open, so a test may
 * hand each store a clock of its own. {@link #reopen()} closes the store and opens the same
 * directory again, as a restart does. The directory is deleted once the store is closed. Not
 * thread-safe: one test drives it.
 */
public final class OmStoreExtension
    implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback, AfterAllCallback {

  private final Supplier<OmStoreOptions> options;
  private boolean classScoped;
  private Path root;
  private OmMetadataStore store;
  private LeakCheck leakCheck;

  private OmStoreExtension(Supplier<OmStoreOptions> options) {
    this.options = Objects.requireNonNull(options, "options");
  }

  /** A store with {@link OmStoreOptions#defaults()}. */
  public static OmStoreExtension withDefaults() {
    return new OmStoreExtension(OmStoreOptions::defaults);
  }

  /** A store with {@code options}. */
  public static OmStoreExtension withOptions(OmStoreOptions options) {
    Objects.requireNonNull(options, "options");
    return new OmStoreExtension(() -> options);
  }

  /** A store with the options {@code options} supplies at each open. */
  public static OmStoreExtension withOptions(Supplier<OmStoreOptions> options) {
    return new OmStoreExtension(options);
  }

  /** The open store. */
  public OmMetadataStore store() {
    if (store == null) {
      throw new IllegalStateException("No store is open: the extension opens it before each test"
          + " (instance field) or before all tests (static field)");
    }
    return store;
  }

  /** The store's directory. */
  public Path dir() {
    return root.resolve("om");
  }

  /**
   * A directory beside the store's, deleted with it, for other stores or files a test needs.
   */
  public Path scratch(String name) {
    return root.resolve(name);
  }

  /** Closes the store and opens its directory again with the same options. */
  public OmMetadataStore reopen() {
    return reopen(options.get());
  }

  /** Closes the store and opens its directory again with {@code newOptions}. */
  public OmMetadataStore reopen(OmStoreOptions newOptions) {
    store().close();
    store = OmMetadataStore.open(dir(), newOptions);
    return store;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    classScoped = true;
    open();
  }

  @Override
  public void beforeEach(ExtensionContext context) throws IOException {
    if (!classScoped) {
      open();
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    if (!classScoped) {
      close(context);
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    close(context);
  }

  private void open() throws IOException {
    leakCheck = LeakCheck.begin();
    root = Files.createTempDirectory("om-store-");
    store = OmMetadataStore.open(dir(), options.get());
  }

  private void close(ExtensionContext context) {
    try {
      if (store != null) {
        store.close();
      }
    } finally {
      store = null;
      deleteRecursively(root);
    }
    String report = leakCheck.report();
    if (!report.isEmpty()) {
      throw new AssertionError(context.getDisplayName() + " leaked resources:" + report);
    }
  }

  private static void deleteRecursively(Path dir) {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete " + dir, e);
    }
  }
}
