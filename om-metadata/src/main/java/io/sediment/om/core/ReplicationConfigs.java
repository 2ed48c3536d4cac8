package io.sediment.om.core;

import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.EcReplicationConfig;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.MultipartUploadInfo;
import io.sediment.proto.om.ReplicationConfig;
import io.sediment.proto.om.ReplicationFactor;
import io.sediment.proto.om.ReplicationType;
import java.util.Locale;
import java.util.Set;

/**
 * The rules of a key's {@link ReplicationConfig}, after Ozone's: which configs are valid
 * ({@link #check}), the default a key without one reads as ({@link #DEFAULT}), and which one a new
 * key gets ({@link #resolve}: its request's, else its bucket's default, else the server's).
 *
 * <p>Valid: RATIS or STAND_ALONE with factor ONE or THREE and no EC part; EC with an EC part and
 * no factor, whose codec is {@code rs} or {@code xor} (any case; stored lower case), whose
 * data-parity scheme is one of Ozone's default allowed schemes 3-2, 6-3 and 10-4, or 2-1, the
 * smallest (xor computes a single parity chunk, so 2-1 only), and whose chunk size is one of
 * Ozone's default allowed 512, 1024, 2048 and 4096 KiB. Stateless.
 */
public final class ReplicationConfigs {

  /**
   * RATIS/THREE, Ozone's default ({@code ozone.server.default.replication.type} and
   * {@code .replication}): what a store uses when neither a request nor its bucket names a config
   * (unless {@link OmStoreOptions#defaultReplication} says otherwise), and what a key written
   * before keys had a config reads as.
   */
  public static final ReplicationConfig DEFAULT = replicated(ReplicationType.RATIS,
      ReplicationFactor.THREE);

  /** The EC codecs, as stored. */
  static final Set<String> CODECS = Set.of("rs", "xor");
  /** Allowed data-parity schemes, as {@code data-parity}. */
  static final Set<String> SCHEMES = Set.of("2-1", "3-2", "6-3", "10-4");
  /** Allowed EC chunk sizes in KiB. */
  static final Set<Integer> CHUNK_KIB = Set.of(512, 1024, 2048, 4096);

  private ReplicationConfigs() {
  }

  /** A RATIS or STAND_ALONE config of {@code factor}. */
  public static ReplicationConfig replicated(ReplicationType type, ReplicationFactor factor) {
    return ReplicationConfig.newBuilder().setType(type).setFactor(factor).build();
  }

  /** An EC config. */
  public static ReplicationConfig ec(String codec, int data, int parity, int chunkBytes) {
    return ReplicationConfig.newBuilder().setType(ReplicationType.EC)
        .setEc(EcReplicationConfig.newBuilder().setCodec(codec).setData(data).setParity(parity)
            .setEcChunkSize(chunkBytes))
        .build();
  }

  /**
   * {@code c} if valid, with its codec in lower case.
   *
   * @throws OmException INVALID_ARGUMENT naming the value that is not valid
   */
  public static ReplicationConfig check(ReplicationConfig c) {
    switch (c.getType()) {
      case RATIS, STAND_ALONE -> {
        if (c.getFactor() != ReplicationFactor.ONE && c.getFactor() != ReplicationFactor.THREE) {
          throw OmException.invalid("Replication factor must be ONE or THREE for " + c.getType()
              + ", not " + factorName(c));
        }
        if (c.hasEc()) {
          throw OmException.invalid("Replication type " + c.getType()
              + " takes a factor, not EC parameters");
        }
        return c;
      }
      case EC -> {
        if (c.getFactor() != ReplicationFactor.REPLICATION_FACTOR_UNSPECIFIED) {
          throw OmException.invalid("Replication type EC takes EC parameters "
              + "(e.g. rs-6-3-1024k), not a factor: " + factorName(c));
        }
        if (!c.hasEc()) {
          throw OmException.invalid("Replication type EC needs its EC parameters: codec, data, "
              + "parity and chunk size (e.g. rs-6-3-1024k)");
        }
        return c.toBuilder().setEc(checkEc(c.getEc())).build();
      }
      default -> throw OmException.invalid("Replication type must be RATIS, STAND_ALONE or EC, "
          + "not " + typeName(c));
    }
  }

  private static EcReplicationConfig checkEc(EcReplicationConfig ec) {
    String codec = ec.getCodec().toLowerCase(Locale.ROOT);
    if (!CODECS.contains(codec)) {
      throw OmException.invalid("EC codec must be rs or xor, not '" + ec.getCodec() + "'");
    }
    String scheme = ec.getData() + "-" + ec.getParity();
    if (ec.getData() < 1 || ec.getParity() < 1) {
      throw OmException.invalid("EC data and parity must be positive: " + scheme);
    }
    if (!SCHEMES.contains(scheme)) {
      throw OmException.invalid("EC data-parity must be 2-1, 3-2, 6-3 or 10-4, not " + scheme);
    }
    if (codec.equals("xor") && ec.getParity() != 1) {
      throw OmException.invalid("The xor codec computes one parity chunk: xor-" + scheme
          + " is not possible (use xor-2-1 or rs)");
    }
    int chunk = ec.getEcChunkSize();
    if (chunk % 1024 != 0 || !CHUNK_KIB.contains(chunk / 1024)) {
      throw OmException.invalid("EC chunk size must be 512k, 1024k, 2048k or 4096k, not "
          + chunk + " bytes");
    }
    return ec.toBuilder().setCodec(codec).build();
  }

  /**
   * The config a new key gets: {@code requested} (checked) if not null, else the bucket's
   * default if it has one, else {@code fallback}.
   *
   * @param bucket null when unknown (the fallback then applies)
   * @throws OmException INVALID_ARGUMENT for a requested config {@link #check} refuses
   */
  public static ReplicationConfig resolve(ReplicationConfig requested, BucketInfo bucket,
      ReplicationConfig fallback) {
    if (requested != null) {
      return check(requested);
    }
    if (bucket != null && bucket.hasDefaultReplicationConfig()) {
      return bucket.getDefaultReplicationConfig();
    }
    return fallback;
  }

  /** The key's config; {@link #DEFAULT} for a row written before keys had one. */
  public static ReplicationConfig of(KeyInfo k) {
    return k.hasReplicationConfig() ? k.getReplicationConfig() : DEFAULT;
  }

  /** An upload's config; {@link #DEFAULT} for an upload initiated before uploads had one. */
  public static ReplicationConfig ofUpload(MultipartUploadInfo u) {
    return u.hasReplicationConfig() ? u.getReplicationConfig() : DEFAULT;
  }

  /** How many data nodes a key's data needs: the factor's copies, or EC's data plus parity. */
  public static int requiredNodes(ReplicationConfig c) {
    return c.getType() == ReplicationType.EC ? c.getEc().getData() + c.getEc().getParity()
        : c.getFactorValue();
  }

  private static String typeName(ReplicationConfig c) {
    return c.getType() == ReplicationType.UNRECOGNIZED ? "type number " + c.getTypeValue()
        : c.getType().name();
  }

  private static String factorName(ReplicationConfig c) {
    return c.getFactor() == ReplicationFactor.UNRECOGNIZED ? "factor number " + c.getFactorValue()
        : c.getFactor().name();
  }
}
