package io.sediment.om.core;

import io.sediment.proto.om.ReplicationConfig;
import io.sediment.proto.om.ReplicationFactor;
import io.sediment.proto.om.ReplicationType;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The written forms of a {@link ReplicationConfig}, as Ozone's shell takes them ({@code ozone sh
 * key put -t RATIS -r THREE}, {@code -t EC -r rs-6-3-1024k}): a type and a replication, and back.
 * Parsing checks the form only (a type and factor that exist, an EC string of four parts);
 * whether the config is allowed is {@link ReplicationConfigs#check}'s. Stateless.
 */
public final class ReplicationText {

  /** {@code CODEC-DATA-PARITY-CHUNK[k]}, as Ozone's EC string. */
  private static final Pattern EC_FORM =
      Pattern.compile("([a-zA-Z]+)-(\\d{1,9})-(\\d{1,9})-(\\d{1,10})([kK]?)");

  private ReplicationText() {
  }

  /**
   * The config of a type and a replication, each case-insensitive and either may be null:
   * type RATIS, STAND_ALONE (or STANDALONE) or EC, inferred when null (EC for a replication with
   * a '-', else RATIS); replication ONE, THREE, 1 or 3 for RATIS and STAND_ALONE (THREE when
   * null, Ozone's default factor), {@code CODEC-DATA-PARITY-CHUNK[k]} for EC (required; a
   * chunk size without {@code k} is in bytes).
   *
   * @return null when both are null
   * @throws IllegalArgumentException for a form that is not one of those, naming it
   */
  public static ReplicationConfig parse(String type, String replication) {
    if (type == null && replication == null) {
      return null;
    }
    ReplicationType t = type == null
        ? (replication.contains("-") ? ReplicationType.EC : ReplicationType.RATIS)
        : type(type);
    if (t == ReplicationType.EC) {
      if (replication == null) {
        throw new IllegalArgumentException("Replication type EC needs a replication "
            + "CODEC-DATA-PARITY-CHUNKSIZE, e.g. rs-6-3-1024k");
      }
      Matcher m = EC_FORM.matcher(replication);
      if (!m.matches()) {
        throw new IllegalArgumentException("EC replication must be CODEC-DATA-PARITY-CHUNKSIZE "
            + "(e.g. rs-3-2-1024k, rs-6-3-1024k, xor-2-1-1024k), not '" + replication + "'");
      }
      long chunk = Long.parseLong(m.group(4)) * (m.group(5).isEmpty() ? 1 : 1024);
      if (chunk > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("EC chunk size too large in '" + replication + "'");
      }
      return ReplicationConfigs.ec(m.group(1).toLowerCase(Locale.ROOT),
          Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)), (int) chunk);
    }
    return ReplicationConfigs.replicated(t, replication == null ? ReplicationFactor.THREE
        : factor(t, replication));
  }

  private static ReplicationType type(String text) {
    return switch (text.toUpperCase(Locale.ROOT)) {
      case "RATIS" -> ReplicationType.RATIS;
      case "STAND_ALONE", "STANDALONE" -> ReplicationType.STAND_ALONE;
      case "EC" -> ReplicationType.EC;
      default -> throw new IllegalArgumentException(
          "Replication type must be RATIS, STAND_ALONE or EC, not '" + text + "'");
    };
  }

  private static ReplicationFactor factor(ReplicationType t, String text) {
    return switch (text.toUpperCase(Locale.ROOT)) {
      case "ONE", "1" -> ReplicationFactor.ONE;
      case "THREE", "3" -> ReplicationFactor.THREE;
      default -> throw new IllegalArgumentException("Replication of type " + t
          + " must be ONE or THREE, not '" + text + "'");
    };
  }

  /**
   * The replication part, as {@code -r} takes it: the factor ({@code THREE}), or the EC string
   * ({@code rs-6-3-1024k}; a chunk size that is not whole KiB in bytes).
   */
  public static String replication(ReplicationConfig c) {
    if (c.getType() != ReplicationType.EC) {
      return c.getFactor().name();
    }
    int chunk = c.getEc().getEcChunkSize();
    return c.getEc().getCodec() + "-" + c.getEc().getData() + "-" + c.getEc().getParity() + "-"
        + (chunk % 1024 == 0 ? chunk / 1024 + "k" : Integer.toString(chunk));
  }

  /**
   * The type as Ozone's JSON prints it: RATIS, STANDALONE (Ozone's JSON spelling of
   * STAND_ALONE) or EC.
   */
  public static String typeName(ReplicationConfig c) {
    return c.getType() == ReplicationType.STAND_ALONE ? "STANDALONE" : c.getType().name();
  }

  /** {@code TYPE/REPLICATION}: {@code RATIS/THREE}, {@code EC/rs-6-3-1024k}. */
  public static String text(ReplicationConfig c) {
    return typeName(c) + "/" + replication(c);
  }
}
