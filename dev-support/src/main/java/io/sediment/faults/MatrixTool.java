package io.sediment.faults;

/** The commands the corruption matrix runs against each damaged store. */
enum MatrixTool {
  /** {@code sediment verify --data D}: must fail on any damage that loses data. */
  VERIFY("verify"),
  /** {@code sediment ldb --data D --table keyTable}: read-only; refuses or shows every row. */
  LDB("ldb --table keyTable"),
  /** {@code sediment serve --data D}: refuses, or serves the whole store (reads may fail loudly). */
  SERVE("serve"),
  /** {@code sediment recon --db D/om}: read-only; refuses, or its listKeys shows every key. */
  RECON("recon --db");

  private final String display;

  MatrixTool(String display) {
    this.display = display;
  }

  String display() {
    return display;
  }

  /** True for the tools that must never change a file of the store. */
  boolean readOnly() {
    return this != SERVE;
  }
}
