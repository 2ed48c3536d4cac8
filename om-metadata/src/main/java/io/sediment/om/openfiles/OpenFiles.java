package io.sediment.om.openfiles;

import static io.sediment.om.core.OmDBDefinition.KEY_TABLE;
import static io.sediment.om.core.OmDBDefinition.OPEN_FILE_TABLE;
import static io.sediment.om.core.OmDBDefinition.OPEN_KEY_TABLE;

import io.sediment.db.ReadView;
import io.sediment.db.codec.Codec;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmValidation;
import io.sediment.om.fso.FsoTree;
import io.sediment.om.listing.Page;
import io.sediment.om.listing.PageRequest;
import io.sediment.om.listing.Pager;
import io.sediment.om.listing.TableScan;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.ListKind;
import java.util.ArrayList;
import java.util.List;

/**
 * The open-file listing of one bucket (Ozone's {@code listOpenFiles}): openKeyTable
 * ({@code /volume/bucket/key/<clientId>}) for OBJECT_STORE and LEGACY buckets, openFileTable
 * ({@code /volumeId/bucketId/parentId/name/<clientId>}) for FSO buckets.
 *
 * <p>A page reads the bucket row and the open entries through one {@link ReadView}, with one
 * iterator bounded to the bucket's prefix, positioned once after the token's last key (a key
 * deleted meanwhile resumes at the next live one) and read lazily; one {@code hasNext()} after a
 * full page makes {@code truncated} exact. The total is the bucket's maintained OPEN_KEYS or
 * OPEN_FILES counter, not a count of the prefix per page as in Ozone. An FSO entry's path is its
 * current one ({@link OpenFilePaths}): a rename of an ancestor since the open moves it, as it
 * moves the file the commit will create. Thread-safe.
 */
public final class OpenFiles {

  private static final Codec<KeyInfo> KEY_INFO = KEY_TABLE.valueCodec();

  private final OmContext ctx;
  private final Pager pager;

  public OpenFiles(OmContext ctx, Pager pager) {
    this.ctx = ctx;
    this.pager = pager;
  }

  /**
   * One page of the keys (OBJECT_STORE/LEGACY: openKeyTable) or files (FSO: openFileTable) open
   * for writing in one bucket, in table key order, after the token's position. The token is bound
   * to this bucket (by object id). {@code totalOpenKeyCount} is the bucket's maintained OPEN_KEYS
   * or OPEN_FILES counter, never a recount.
   *
   * @param maxKeys page size, 0 (no entries: the total alone) to the store's cap
   * @throws OmException INVALID_ARGUMENT (names, page size, token), NOT_FOUND (volume or bucket)
   */
  public OpenFilesPage list(String volume, String bucket, int maxKeys, String token) {
    OmValidation.checkBucketArgs(volume, bucket);
    int max = ctx.checkPageSize("maxKeys", maxKeys);
    try (ReadView view = ctx.store().openReadView()) {
      BucketInfo info = ctx.requireBucket(view, volume, bucket);
      boolean fso = info.getLayout() == BucketLayout.FILE_SYSTEM_OPTIMIZED;
      String base = fso ? OmKeys.fsoBucketPrefix(info.getVolumeId(), info.getObjectId())
          : OmKeys.bucketPrefix(volume, bucket);
      Page<TableScan.Entry> page = pager.page(
          PageRequest.of(ListKind.LIST_OPEN_FILES, volume, bucket, info.getObjectId(), null),
          token, null, max, TableScan.source(
              view.getTable((fso ? OPEN_FILE_TABLE : OPEN_KEY_TABLE).name()), base, null, null,
              TableScan.ENTRIES));
      List<OpenFileEntry> entries = new ArrayList<>(page.items().size());
      OpenFilePaths fsoPaths = fso ? new OpenFilePaths(view, FsoTree.DEFAULT_WALK_BUDGET) : null;
      for (TableScan.Entry e : page.items()) {
        KeyInfo k = KEY_INFO.fromPersistedFormat(e.value());
        String path = fso ? fsoPaths.current(base + e.name(), k) : k.getKeyName();
        entries.add(new OpenFileEntry(path, OmKeys.suffixId(e.name()), k.getCreationTime(),
            k.getDataSize(), k));
      }
      long total = ctx.bucketCountersOf(info.getObjectId())
          .get(fso ? OmCounter.OPEN_FILES : OmCounter.OPEN_KEYS);
      return new OpenFilesPage(entries, page.truncated(), page.nextToken(), total);
    }
  }
}
