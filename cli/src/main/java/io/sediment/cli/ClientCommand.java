package io.sediment.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;

/**
 * A command that calls a running server: its {@code --target} and {@code --timeout}
 * ({@link TargetOptions}, whose {@code om} and {@code admin} run the calls) and its own command
 * line, for usage errors and output. Subclasses are picocli commands; their {@code call()} returns
 * the exit code.
 */
abstract class ClientCommand implements Callable<Integer> {

  @Mixin
  TargetOptions target;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;
}
