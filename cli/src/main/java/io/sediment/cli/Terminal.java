package io.sediment.cli;

import java.io.Console;

/**
 * The person at a command, if there is one: whether stdin and stdout are a terminal (so progress
 * is drawn and a question can be asked), and a question answered with one line.
 *
 * <p>Implementations are used by one command at a time.
 */
interface Terminal {

  /** Whether a person can see progress and answer a question ({@link System#console()}). */
  boolean interactive();

  /**
   * Shows {@code question} and returns the line answered, without its line end; {@code null} at
   * the end of input. Only called when {@link #interactive()}.
   */
  String ask(String question);

  /** The process's own console, interactive exactly when {@link System#console()} exists. */
  static Terminal system() {
    return new Terminal() {
      @Override
      public boolean interactive() {
        return System.console() != null;
      }

      @Override
      public String ask(String question) {
        Console console = System.console();
        return console == null ? null : console.readLine("%s", question);
      }
    };
  }
}
