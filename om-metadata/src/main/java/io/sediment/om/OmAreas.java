package io.sediment.om;

import io.sediment.db.DBProfile;
import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.om.aclstore.ObjectAcls;
import io.sediment.om.bucket.Buckets;
import io.sediment.om.bucket.Volumes;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.credentials.AuthTokens;
import io.sediment.om.fso.FsoNamespace;
import io.sediment.om.keys.ObjectKeys;
import io.sediment.om.listing.ObjectListings;
import io.sediment.om.listing.Pager;
import io.sediment.om.multipart.MultipartParts;
import io.sediment.om.multipart.MultipartUploads;
import io.sediment.om.openfiles.OpenFiles;
import io.sediment.om.purge.LifecycleScans;
import io.sediment.om.purge.OmPurges;
import io.sediment.om.snapshot.SnapshotRows;
import io.sediment.om.snapshot.SnapshotStores;
import io.sediment.om.snapshot.Snapshots;
import java.nio.file.Path;

/**
 * Everything {@link OmMetadataStore} serves from one open hdds-db store: the context and every
 * area built on it. The facade holds one at a time and replaces it whole when the store's files
 * are replaced ({@link StoreReplacement}); closing it closes the snapshot stores, then the store.
 */
final class OmAreas implements AutoCloseable {

  final DBStore store;
  final OmContext ctx;
  final Volumes volumes;
  final Buckets buckets;
  final ObjectKeys objectKeys;
  final ObjectListings listings;
  final SnapshotStores snapshotStores;
  final Snapshots snapshots;
  final MultipartUploads multipart;
  final OpenFiles openFiles;
  final OmPurges purges;
  final LifecycleScans lifecycle;
  final FsoNamespace fso;
  final AuthTokens authTokens;
  final ObjectAcls acls;

  /** Builds the areas over {@code store}, which the areas then own (closed by {@link #close}). */
  OmAreas(DBStore store, OmStoreOptions options) {
    this.store = store;
    this.ctx = new OmContext(store, options);
    Pager pager = Pager.forStore(ctx);
    SnapshotRows snapshotRows = new SnapshotRows(ctx);
    MultipartParts parts = new MultipartParts(ctx);
    this.volumes = new Volumes(ctx);
    this.snapshotStores = new SnapshotStores(store.getPath().resolve(Snapshots.ROOT_DIR));
    this.snapshots = new Snapshots(ctx, pager, snapshotRows, snapshotStores);
    this.buckets = new Buckets(ctx, snapshotRows);
    this.objectKeys = new ObjectKeys(ctx);
    this.listings = new ObjectListings(ctx, pager);
    this.multipart = new MultipartUploads(ctx, parts);
    parts.moveInlineParts();
    this.openFiles = new OpenFiles(ctx, pager);
    this.purges = new OmPurges(ctx, parts);
    this.lifecycle = new LifecycleScans(ctx);
    this.fso = new FsoNamespace(ctx, pager);
    this.authTokens = new AuthTokens(ctx);
    this.acls = new ObjectAcls(ctx);
  }

  /**
   * Opens (creating if missing) the store in {@code dir} with {@code profile} and builds the areas
   * over it; the store is closed again if building them fails.
   */
  static OmAreas open(Path dir, OmStoreOptions options, DBProfile profile) {
    DBStore store = DBStoreBuilder.newBuilder(OmDBDefinition.DEFINITION).setPath(dir)
        .setProfile(profile).build();
    try {
      return new OmAreas(store, options);
    } catch (RuntimeException | Error e) {
      store.close();
      throw e;
    }
  }

  /** Closes the snapshot stores, then the store. */
  @Override
  public void close() {
    try {
      snapshotStores.close();
    } finally {
      store.close();
    }
  }
}
