package io.sediment.cli;

import io.sediment.proto.om.AdminServiceGrpc;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Function;
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

  /**
   * Makes one AdminService call with the command's deadline, hands its answer to {@code print}
   * and returns 0, the exit code; a failed call propagates (see {@link TargetOptions#admin}).
   */
  <R> int adminCall(Function<AdminServiceGrpc.AdminServiceBlockingStub, R> call,
      Consumer<R> print) {
    return target.admin(spec.commandLine(),
        admin -> print.accept(call.apply(target.deadline(admin))));
  }
}
