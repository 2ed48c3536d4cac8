package io.sediment.om.grpc;

import io.sediment.om.OmMetadataStore;
import io.sediment.om.listing.ListPage;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.CreateBucketRequest;
import io.sediment.proto.om.CreateBucketResponse;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.CreateVolumeResponse;
import io.sediment.proto.om.DeleteBucketRequest;
import io.sediment.proto.om.DeleteBucketResponse;
import io.sediment.proto.om.DeleteVolumeRequest;
import io.sediment.proto.om.DeleteVolumeResponse;
import io.sediment.proto.om.GetBucketRequest;
import io.sediment.proto.om.GetBucketResponse;
import io.sediment.proto.om.GetVolumeRequest;
import io.sediment.proto.om.GetVolumeResponse;
import io.sediment.proto.om.ListBucketsRequest;
import io.sediment.proto.om.ListBucketsResponse;
import io.sediment.proto.om.ListVolumesRequest;
import io.sediment.proto.om.ListVolumesResponse;
import io.sediment.proto.om.OmLogEntry;
import io.sediment.proto.om.OmServiceGrpc;
import io.sediment.proto.om.SetBucketPropertiesRequest;
import io.sediment.proto.om.SetBucketPropertiesResponse;
import io.sediment.proto.om.SetVolumePropertiesRequest;
import io.sediment.proto.om.SetVolumePropertiesResponse;
import io.sediment.proto.om.VolumeInfo;

/**
 * The volume and bucket RPCs of {@code OmService}: create, get, set properties (an absent optional
 * field leaves that property as it is), delete and list, each one facade call; a listing answers
 * its page and whether more follow.
 *
 * <p>Thread-safe (stateless over a thread-safe store).
 */
record NamespaceRpcs(OmMetadataStore store, WireValues wire) {

  /** Binds this area's RPCs: reads and writes (each with its log entry field). */
  void bindTo(RpcBinder b) {
    b.write(OmServiceGrpc.getCreateVolumeMethod(), OmLogEntry.Builder::setCreateVolume,
        OmLogEntry::getCreateVolume, this::createVolume);
    b.read(OmServiceGrpc.getGetVolumeMethod(), this::getVolume);
    b.write(OmServiceGrpc.getSetVolumePropertiesMethod(), OmLogEntry.Builder::setSetVolumeProperties,
        OmLogEntry::getSetVolumeProperties, this::setVolumeProperties);
    b.write(OmServiceGrpc.getDeleteVolumeMethod(), OmLogEntry.Builder::setDeleteVolume,
        OmLogEntry::getDeleteVolume, this::deleteVolume);
    b.read(OmServiceGrpc.getListVolumesMethod(), this::listVolumes);
    b.write(OmServiceGrpc.getCreateBucketMethod(), OmLogEntry.Builder::setCreateBucket,
        OmLogEntry::getCreateBucket, this::createBucket);
    b.read(OmServiceGrpc.getGetBucketMethod(), this::getBucket);
    b.write(OmServiceGrpc.getSetBucketPropertiesMethod(), OmLogEntry.Builder::setSetBucketProperties,
        OmLogEntry::getSetBucketProperties, this::setBucketProperties);
    b.write(OmServiceGrpc.getDeleteBucketMethod(), OmLogEntry.Builder::setDeleteBucket,
        OmLogEntry::getDeleteBucket, this::deleteBucket);
    b.read(OmServiceGrpc.getListBucketsMethod(), this::listBuckets);
  }

  CreateVolumeResponse createVolume(CreateVolumeRequest req) {
    return CreateVolumeResponse.newBuilder()
        .setVolume(store.createVolume(req.getVolume(), req.getOwner())).build();
  }

  GetVolumeResponse getVolume(GetVolumeRequest req) {
    return GetVolumeResponse.newBuilder().setVolume(store.getVolumeInfo(req.getVolume())).build();
  }

  SetVolumePropertiesResponse setVolumeProperties(SetVolumePropertiesRequest req) {
    return SetVolumePropertiesResponse.newBuilder()
        .setVolume(store.setVolumeProperties(req.getVolume(),
            req.hasOwner() ? req.getOwner() : null,
            req.hasQuotaInBytes() ? req.getQuotaInBytes() : null,
            req.hasQuotaInNamespace() ? req.getQuotaInNamespace() : null))
        .build();
  }

  DeleteVolumeResponse deleteVolume(DeleteVolumeRequest req) {
    store.deleteVolume(req.getVolume());
    return DeleteVolumeResponse.getDefaultInstance();
  }

  ListVolumesResponse listVolumes(ListVolumesRequest req) {
    ListPage<VolumeInfo> page = store.listVolumes(req.getPrefix(), req.getStartAfter(),
        wire.pageSize(req.hasMaxResults(), req.getMaxResults()));
    return ListVolumesResponse.newBuilder().addAllVolumes(page.items())
        .setTruncated(page.truncated()).build();
  }

  CreateBucketResponse createBucket(CreateBucketRequest req) {
    return CreateBucketResponse.newBuilder()
        .setBucket(store.createBucket(req.getVolume(), req.getBucket(), req.getLayout(),
            req.getOwner(), req.getQuotaInBytes(), req.hasDefaultReplicationConfig()
                ? req.getDefaultReplicationConfig() : null))
        .build();
  }

  GetBucketResponse getBucket(GetBucketRequest req) {
    return GetBucketResponse.newBuilder()
        .setBucket(store.getBucketInfo(req.getVolume(), req.getBucket())).build();
  }

  SetBucketPropertiesResponse setBucketProperties(SetBucketPropertiesRequest req) {
    return SetBucketPropertiesResponse.newBuilder()
        .setBucket(store.setBucketProperties(req.getVolume(), req.getBucket(),
            req.hasOwner() ? req.getOwner() : null,
            req.hasQuotaInBytes() ? req.getQuotaInBytes() : null,
            req.hasQuotaInNamespace() ? req.getQuotaInNamespace() : null,
            req.hasDefaultReplicationConfig() ? req.getDefaultReplicationConfig() : null))
        .build();
  }

  DeleteBucketResponse deleteBucket(DeleteBucketRequest req) {
    store.deleteBucket(req.getVolume(), req.getBucket());
    return DeleteBucketResponse.getDefaultInstance();
  }

  ListBucketsResponse listBuckets(ListBucketsRequest req) {
    ListPage<BucketInfo> page = store.listBuckets(req.getVolume(), req.getPrefix(),
        req.getStartAfter(), wire.pageSize(req.hasMaxResults(), req.getMaxResults()));
    return ListBucketsResponse.newBuilder().addAllBuckets(page.items())
        .setTruncated(page.truncated()).build();
  }
}
