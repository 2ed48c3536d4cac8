package io.sediment.bench;

import io.sediment.om.listing.KeyRowView;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.OmAcl;
import io.sediment.proto.om.ReplicationConfig;
import io.sediment.proto.om.ReplicationFactor;
import io.sediment.proto.om.ReplicationType;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What a ListObjects page of 1,000 stored {@code KeyInfo} rows costs on the server to check
 * ({@link KeyRowView#FULL}: the skim) and to cut to the basic view ({@link KeyRowView#BASIC}, which
 * checks in the same walk). A basic-view page used to pay both, one walk after the other; it now
 * pays the cut alone. Rows as freon commits them ({@code freon}: no user metadata, the default
 * ACLs) or as an S3 gateway would ({@code s3}: an ETag and three user metadata entries).
 *
 * <p>Run with the shaded cli jar on the class path (om-metadata is provided):
 * {@code java -cp dev-support/target/benchmarks.jar:cli/target/sediment.jar
 * org.openjdk.jmh.Main KeyRowViewBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class KeyRowViewBenchmark {

  private static final int PAGE = 1_000;

  @Param({"freon", "s3"})
  public String rows;

  private byte[][] page;

  @Setup
  public void setUp() {
    page = new byte[PAGE][];
    for (int i = 0; i < PAGE; i++) {
      KeyInfo.Builder b = KeyInfo.newBuilder().setVolumeName("freon").setBucketName("obs")
          .setKeyName(String.format("key-%010d", 1_000_000L + i * 7919L)).setDataSize(4096)
          .setCreationTime(1_764_900_000_000L + i).setModificationTime(1_764_900_000_000L + i)
          .setObjectId(1L << 20 | i).setUpdateId(i).setOwner("freon")
          .setReplicationConfig(ReplicationConfig.newBuilder().setType(ReplicationType.RATIS)
              .setFactor(ReplicationFactor.THREE))
          .addAcls(OmAcl.newBuilder().setName("freon").build())
          .addAcls(OmAcl.newBuilder().setName("freon-group").build());
      if (rows.equals("s3")) {
        b.putMetadata("ETag", String.format("%032x", i * 2654435761L))
            .putMetadata("content-type", "application/octet-stream")
            .putMetadata("x-amz-meta-owner", "team-" + (i % 7))
            .putMetadata("x-amz-meta-build", "2026.12." + i);
      }
      page[i] = b.build().toByteArray();
    }
  }

  /** The check alone: what a full-view page pays, and what a basic page paid before the cut. */
  @Benchmark
  public void skim(Blackhole bh) {
    for (byte[] row : page) {
      bh.consume(KeyRowView.FULL.of(row));
    }
  }

  /**
   * The basic view's cut, which checks each row in the same walk, as a listing makes it: the
   * page's rows into one shared buffer.
   */
  @Benchmark
  public void cut(Blackhole bh) {
    KeyRowView.Cut cut = KeyRowView.BASIC.page();
    for (byte[] row : page) {
      bh.consume(cut.of(row));
    }
  }
}
