package io.sediment.cli;

import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The commands of {@code sediment}, in the order its help lists them. Building a command's
 * option model loads and reflects over its classes (and, for {@code serve}, starts logging), so a
 * run registers only the command it runs when it can tell which. Stateless.
 */
final class Subcommands {

  /** Every command, in help order. */
  static final List<Class<?>> ALL = List.of(ServeCommand.class, LoadCommand.class,
      LsCommand.class, ScanCommand.class, RmCommand.class, LdbCommand.class, ReconCommand.class,
      SnapshotCommand.class, TombstonesCommand.class, CompactCommand.class,
      CheckpointCommand.class, VerifyCommand.class, RepairCommand.class, HaCommand.class,
      TokenCommand.class, AclCommand.class,
      VolumeCommand.class, BucketCommand.class, KeyCommand.class, DirCommand.class,
      FileCommand.class, MpuCommand.class, OpenKeysCommand.class,
      CommandLine.HelpCommand.class);

  private Subcommands() {
  }

  /** The name {@code command}'s {@code @Command} annotation gives it. */
  static String name(Class<?> command) {
    return command.getAnnotation(Command.class).name();
  }

  /**
   * The commands a run of {@code args} needs: the one its first argument names; none for
   * {@code --version} alone; else every command (no arguments, {@code --help}, {@code help},
   * which describes the others, or a misspelt command, whose error suggests the others).
   */
  static List<Class<?>> named(String[] args) {
    if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
      return List.of();
    }
    if (args.length > 0) {
      for (Class<?> c : ALL) {
        if (c != CommandLine.HelpCommand.class && name(c).equals(args[0])) {
          return List.of(c);
        }
      }
    }
    return ALL;
  }
}
