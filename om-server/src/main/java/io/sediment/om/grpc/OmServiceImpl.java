package io.sediment.om.grpc;

import io.grpc.BindableService;
import io.grpc.ServerServiceDefinition;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.auth.AccessControl;
import io.sediment.om.authz.RpcRights;
import io.sediment.om.requests.ReadGate;
import io.sediment.om.requests.WritePath;
import io.sediment.proto.om.OmServiceGrpc;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * {@code OmService}: each RPC is one call of the {@link OmMetadataStore} facade, run through
 * {@link UnaryCalls} (deadline and cancel checks, error mapping by {@link GrpcStatuses}). The RPCs
 * live by area: {@link NamespaceRpcs} (volumes and buckets), {@link KeyRpcs} (object keys, their
 * listings and open keys), {@link MultipartRpcs}, {@link SnapshotRpcs}, {@link FileSystemRpcs}
 * and {@link AclRpcs};
 * the wire conventions they share (page sizes, unsigned fields, tokens) are {@link WireValues}.
 *
 * <p>Reads pass the {@link ReadGate} first; writes go through the {@link WritePath} as log
 * entries ({@link RpcBinder}), applied by {@link WriteRequests} here or on every replica.
 *
 * <p>{@link #bindService()} fails with {@link IllegalStateException} when an RPC of the service
 * is left without its handler, so a server never starts with a method unanswered.
 *
 * <p>Thread-safe (stateless over a thread-safe store).
 */
public final class OmServiceImpl implements BindableService {

  private final OmMetadataStore store;
  private final WritePath writes;
  private final ReadGate reads;
  private final Executor completions;
  /** Null when calls are not checked. */
  private final RpcRights rights;
  /** What the ACL RPCs check their callers against ({@link AccessControl#OPEN} without rights). */
  private final AccessControl access;

  /** A single-node service: writes applied on the calling thread, reads ungated. */
  public OmServiceImpl(OmMetadataStore store) {
    this(store, WriteRequests.over(store), ReadGate.NONE, Runnable::run);
  }

  /**
   * A service whose writes take {@code writes} and whose reads pass {@code reads} first; a write
   * the path completes later is answered on {@code completions} (the server's handler threads,
   * never the thread that completed it, which may be a replica's apply thread).
   */
  public OmServiceImpl(OmMetadataStore store, WritePath writes, ReadGate reads,
      Executor completions) {
    this(store, writes, reads, completions, (RpcRights) null);
  }

  /**
   * A service as above whose every RPC is first admitted by {@code rights} (null: none), the ACL
   * RPCs also checking READ_ACL or WRITE_ACL with its access control.
   *
   * <p>{@link #bindService()} then fails with {@link IllegalStateException} for an RPC
   * {@code rights} has no rule for.
   */
  public OmServiceImpl(OmMetadataStore store, WritePath writes, ReadGate reads,
      Executor completions, RpcRights rights) {
    this(store, writes, reads, completions, rights,
        rights == null ? AccessControl.OPEN : rights.accessControl());
  }

  /**
   * As {@link #OmServiceImpl(OmMetadataStore, WritePath, ReadGate, Executor)}, the ACL RPCs
   * checking their callers against {@code access} ({@link AclRpcs}), no other RPC checked.
   */
  public OmServiceImpl(OmMetadataStore store, WritePath writes, ReadGate reads,
      Executor completions, AccessControl access) {
    this(store, writes, reads, completions, null, access);
  }

  private OmServiceImpl(OmMetadataStore store, WritePath writes, ReadGate reads,
      Executor completions, RpcRights rights, AccessControl access) {
    this.rights = rights;
    this.access = Objects.requireNonNull(access, "access");
    this.store = Objects.requireNonNull(store, "store");
    this.writes = Objects.requireNonNull(writes, "writes");
    this.reads = Objects.requireNonNull(reads, "reads");
    this.completions = Objects.requireNonNull(completions, "completions");
  }

  @Override
  public ServerServiceDefinition bindService() {
    ServerServiceDefinition.Builder service =
        ServerServiceDefinition.builder(OmServiceGrpc.getServiceDescriptor());
    bindAreas(store, new RpcBinder(service, reads, writes, completions, rights), access);
    return service.build();
  }

  /** Binds every area's RPCs with {@code binder}, none of them checking access. */
  static void bindAreas(OmMetadataStore store, RpcBinder binder) {
    bindAreas(store, binder, AccessControl.OPEN);
  }

  /** Binds every area's RPCs with {@code binder}; the ACL RPCs check callers against {@code access}. */
  static void bindAreas(OmMetadataStore store, RpcBinder binder, AccessControl access) {
    WireValues wire = new WireValues(store.options().maxListSize());
    new NamespaceRpcs(store, wire).bindTo(binder);
    new KeyRpcs(store, wire).bindTo(binder);
    new MultipartRpcs(store, wire).bindTo(binder);
    new SnapshotRpcs(store, wire).bindTo(binder);
    new FileSystemRpcs(store, wire).bindTo(binder);
    new AclRpcs(store, access).bindTo(binder);
  }
}
