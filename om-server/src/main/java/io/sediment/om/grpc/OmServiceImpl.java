package io.sediment.om.grpc;

import io.grpc.BindableService;
import io.grpc.ServerServiceDefinition;
import io.sediment.om.OmMetadataStore;
import io.sediment.proto.om.OmServiceGrpc;
import java.util.Objects;

/**
 * {@code OmService}: each RPC is one call of the {@link OmMetadataStore} facade, run through
 * {@link UnaryCalls} (deadline and cancel checks, error mapping by {@link GrpcStatuses}). The RPCs
 * live by area: {@link NamespaceRpcs} (volumes and buckets), {@link KeyRpcs} (object keys, their
 * listings and open keys), {@link MultipartRpcs}, {@link SnapshotRpcs} and {@link FileSystemRpcs};
 * the wire conventions they share (page sizes, unsigned fields, tokens) are {@link WireValues}.
 *
 * <p>{@link #bindService()} fails with {@link IllegalStateException} when an RPC of the service
 * is left without its handler, so a server never starts with a method unanswered.
 *
 * <p>Thread-safe (stateless over a thread-safe store).
 */
public final class OmServiceImpl implements BindableService {

  private final OmMetadataStore store;

  public OmServiceImpl(OmMetadataStore store) {
    this.store = Objects.requireNonNull(store, "store");
  }

  @Override
  public ServerServiceDefinition bindService() {
    WireValues wire = new WireValues(store.options().maxListSize());
    ServerServiceDefinition.Builder service =
        ServerServiceDefinition.builder(OmServiceGrpc.getServiceDescriptor());
    new NamespaceRpcs(store, wire).bindTo(service);
    new KeyRpcs(store, wire).bindTo(service);
    new MultipartRpcs(store, wire).bindTo(service);
    new SnapshotRpcs(store, wire).bindTo(service);
    new FileSystemRpcs(store, wire).bindTo(service);
    return service.build();
  }
}
