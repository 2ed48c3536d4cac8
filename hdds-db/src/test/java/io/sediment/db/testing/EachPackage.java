package io.sediment.db.testing;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;

/**
 * An ArchUnit slice assignment that makes every package under a root a slice of its own, the root
 * package included (a {@code "root.(**)"} pattern would leave the root out, and with it every cycle
 * through it).
 */
public final class EachPackage implements SliceAssignment {

  private final String root;

  private EachPackage(String root) {
    this.root = root;
  }

  /** Every package that is {@code root} or below it. */
  public static EachPackage under(String root) {
    return new EachPackage(root);
  }

  @Override
  public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
    String pkg = javaClass.getPackageName();
    return pkg.equals(root) || pkg.startsWith(root + ".") ? SliceIdentifier.of(pkg)
        : SliceIdentifier.ignore();
  }

  @Override
  public String getDescription() {
    return "every package of " + root;
  }
}
