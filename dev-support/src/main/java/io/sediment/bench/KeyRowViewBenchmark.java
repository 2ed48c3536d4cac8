package io.sediment.bench;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnknownFieldSet;
import io.sediment.om.listing.KeyColumnsReader;
import io.sediment.om.listing.KeyColumnsWriter;
import io.sediment.om.listing.KeyRowView;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.ListObjectsV2Response;
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
 * ({@link KeyRowView#FULL}: the skim), to cut to the basic view ({@link KeyRowView#BASIC}, which
 * checks in the same walk) or to gather into columns ({@link KeyRowView#COLUMNS}), with and
 * without the response's encoding; and what the client's parse of each response costs. Rows as
 * freon commits them ({@code freon}: no user metadata, the default ACLs) or as an S3 gateway would
 * ({@code s3}: an ETag and three user metadata entries).
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
  /** The basic page's response, as the server sends it. */
  private byte[] rowsResponse;
  /** The columns page's response, as the server sends it. */
  private byte[] columnsResponse;

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
    rowsResponse = serveRows();
    columnsResponse = serveColumns();
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

  /** The columns, which check each row in the same walk, as a listing gathers them. */
  @Benchmark
  public ByteString columns() {
    KeyColumnsWriter columns = new KeyColumnsWriter();
    for (byte[] row : page) {
      columns.add(row);
    }
    return columns.finish();
  }

  /** The basic cut and the response's encoding, as the server sends a basic page. */
  @Benchmark
  public byte[] serveRows() {
    KeyRowView.Cut cut = KeyRowView.BASIC.page();
    UnknownFieldSet.Field.Builder contents = UnknownFieldSet.Field.newBuilder();
    for (byte[] row : page) {
      contents.addLengthDelimited(cut.of(row));
    }
    return ListObjectsV2Response.newBuilder().setUnknownFields(UnknownFieldSet.newBuilder()
            .addField(ListObjectsV2Response.CONTENTS_FIELD_NUMBER, contents.build()).build())
        .setKeyCount(PAGE).setIsTruncated(true).build().toByteArray();
  }

  /** The columns and the response's encoding, as the server sends a columns page. */
  @Benchmark
  public byte[] serveColumns() {
    UnknownFieldSet.Field columns = UnknownFieldSet.Field.newBuilder()
        .addLengthDelimited(columns()).build();
    return ListObjectsV2Response.newBuilder().setUnknownFields(UnknownFieldSet.newBuilder()
            .addField(ListObjectsV2Response.COLUMNS_FIELD_NUMBER, columns).build())
        .setKeyCount(PAGE).setIsTruncated(true).build().toByteArray();
  }

  /** The client's parse of a basic page: a message per key. */
  @Benchmark
  public ListObjectsV2Response parseRows() throws InvalidProtocolBufferException {
    return ListObjectsV2Response.parseFrom(rowsResponse);
  }

  /** The client's parse of a columns page. */
  @Benchmark
  public ListObjectsV2Response parseColumns() throws InvalidProtocolBufferException {
    return ListObjectsV2Response.parseFrom(columnsResponse);
  }

  /** The client's parse of a columns page, then its number columns decoded and checked. */
  @Benchmark
  public KeyColumnsReader parseColumnsAndDecode() throws InvalidProtocolBufferException {
    return KeyColumnsReader.of(ListObjectsV2Response.parseFrom(columnsResponse).getColumns());
  }

  /**
   * The client's parse of a columns page, then every key's name decoded, as a client that shows
   * the names pays.
   */
  @Benchmark
  public void parseColumnsAndNames(Blackhole bh) throws InvalidProtocolBufferException {
    KeyColumnsReader keys = KeyColumnsReader.of(
        ListObjectsV2Response.parseFrom(columnsResponse).getColumns());
    for (int i = 0; i < keys.size(); i++) {
      bh.consume(keys.name(i));
    }
  }
}
