package io.sediment.om.listing;

import static io.sediment.om.core.OmDBDefinition.BUCKET_TABLE;
import static io.sediment.om.core.OmDBDefinition.KEY_TABLE;
import static io.sediment.om.core.OmDBDefinition.VOLUME_TABLE;

import com.google.protobuf.ByteString;
import io.sediment.db.ReadView;
import io.sediment.db.Table;
import io.sediment.db.codec.Codec;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmValidation;
import io.sediment.om.core.StoredRows;
import io.sediment.om.listing.Cursor;
import io.sediment.om.listing.Page;
import io.sediment.om.listing.PageRequest;
import io.sediment.om.listing.PageSource;
import io.sediment.om.listing.Pager;
import io.sediment.om.listing.TableScan;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.ListKind;
import io.sediment.proto.om.VolumeInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The name-ordered listings of volumes, buckets and OBJECT_STORE/LEGACY keys (listKeys and S3
 * ListObjects V1 and V2), each a {@link TableScan} source read by the {@link Pager}; see
 * {@link io.sediment.om.OmMetadataStore}'s listing methods for the contracts. Thread-safe.
 */
public final class ObjectListings {

  private static final Codec<KeyInfo> KEY_INFO = KEY_TABLE.valueCodec();
  private static final Codec<VolumeInfo> VOLUME_INFO = VOLUME_TABLE.valueCodec();
  private static final Codec<BucketInfo> BUCKET_INFO = BUCKET_TABLE.valueCodec();
  private static final String ROOT = String.valueOf(OmKeys.SEPARATOR);

  private final OmContext ctx;
  private final Pager pager;

  public ObjectListings(OmContext ctx, Pager pager) {
    this.ctx = ctx;
    this.pager = pager;
  }

  /**
   * One page of volumes whose names start with {@code prefix}, after {@code startAfter}
   * (exclusive; it need not exist). Page with the last name returned as the next
   * {@code startAfter}.
   *
   * @throws OmException INVALID_ARGUMENT if {@code maxResults} is not in {@code [0, cap]}
   */
  public ListPage<VolumeInfo> listVolumes(String prefix, String startAfter, int maxResults) {
    OmValidation.checkOptionalText("Prefix", prefix);
    OmValidation.checkOptionalText("Start-after", startAfter);
    int max = ctx.checkPageSize("maxResults", maxResults);
    return listPage(Pager.read(TableScan.source(ctx.store().getTable(VOLUME_TABLE.name()), ROOT,
        prefix, null, row -> VOLUME_INFO.fromPersistedFormat(row.value())),
        Cursor.startAfter(startAfter), max));
  }

  /**
   * One page of the buckets of {@code volume} whose names start with {@code prefix}, after
   * {@code startAfter} (exclusive).
   *
   * @throws OmException INVALID_ARGUMENT for a bad argument, NOT_FOUND if the volume is absent
   */
  public ListPage<BucketInfo> listBuckets(String volume, String prefix, String startAfter,
      int maxResults) {
    OmValidation.checkResourceName("Volume", volume);
    OmValidation.checkOptionalText("Prefix", prefix);
    OmValidation.checkOptionalText("Start-after", startAfter);
    int max = ctx.checkPageSize("maxResults", maxResults);
    try (ReadView view = ctx.store().openReadView()) {
      ctx.requireVolume(view, volume);
      return listPage(Pager.read(TableScan.source(view.getTable(BUCKET_TABLE.name()),
          OmKeys.volumePrefix(volume), prefix, null,
          row -> BUCKET_INFO.fromPersistedFormat(row.value())), Cursor.startAfter(startAfter), max));
    }
  }

  /**
   * One page of the keys of an OBJECT_STORE or LEGACY bucket that start with {@code prefix}, in
   * key (UTF-8 byte) order. The page starts after the token's last key when {@code token} is
   * given, else after {@code startAfter} (exclusive; it need not exist), else at the start.
   *
   * @param maxKeys page size, 0 (an empty page) to the store's cap
   * @throws OmException INVALID_ARGUMENT for a bad argument or token, NOT_FOUND if the volume or
   *     bucket is absent, UNIMPLEMENTED for FSO buckets
   */
  public ListPage<KeyInfo> listKeys(String volume, String bucket, String prefix, String startAfter,
      int maxKeys, String token) {
    OmValidation.checkBucketArgs(volume, bucket);
    OmValidation.checkOptionalText("Prefix", prefix);
    OmValidation.checkOptionalText("Start-after", startAfter);
    int max = ctx.checkPageSize("maxKeys", maxKeys);
    long stamp = ctx.parsedRows().stamp();
    try (ReadView view = ctx.store().openReadView()) {
      BucketInfo info = ctx.requireObjectStoreBucket(view, stamp, volume, bucket);
      PageRequest request = PageRequest.of(ListKind.LIST_KEYS, volume, bucket,
          info.getObjectId(), prefix);
      return listPage(pager.page(request, token, Cursor.startAfter(startAfter), max,
          keys(view.getTable(KEY_TABLE.name()), volume, bucket, prefix)));
    }
  }

  /** The committed keys of a bucket under {@code prefix}, from {@code keyTable} (live or not). */
  public static PageSource<KeyInfo> keys(Table<byte[], byte[]> keyTable, String volume, String bucket,
      String prefix) {
    return TableScan.source(keyTable, OmKeys.bucketPrefix(volume, bucket), prefix, null,
        row -> KEY_INFO.fromPersistedFormat(row.value()));
  }

  /**
   * S3 ListObjectsV2 over an OBJECT_STORE or LEGACY bucket: keys starting with the prefix, after
   * the continuation token's position or else after start-after; with a delimiter, every key whose
   * remainder after the prefix contains it is rolled up into the common prefix ending at its first
   * occurrence, which is returned once and counts toward max-keys like a key. {@code maxKeys}
   * above the cap is clamped to it; 0 is the empty page S3 answers to max-keys=0 (no keys, no
   * common prefixes, not truncated, no token).
   *
   * @throws OmException INVALID_ARGUMENT for a bad argument or token (including maxKeys &lt; 0),
   *     NOT_FOUND if the volume or bucket is absent, UNIMPLEMENTED for FSO buckets
   */
  public ListObjectsV2Result listObjectsV2(ListObjectsV2Request request) {
    Objects.requireNonNull(request, "request");
    checkObjectsRequest(request.volume(), request.bucket(), request.prefix(),
        request.delimiter());
    OmValidation.checkOptionalText("Start-after", request.startAfter());
    int max = ctx.clampPageSize("max-keys", request.maxKeys());
    long stamp = ctx.parsedRows().stamp();
    try (ReadView view = ctx.store().openReadView()) {
      BucketInfo info = ctx.requireObjectStoreBucket(view, stamp, request.volume(),
          request.bucket());
      PageRequest bound = PageRequest.of(ListKind.LIST_OBJECTS_V2, request.volume(),
          request.bucket(), info.getObjectId(), request.prefix())
          .with(PageRequest.DELIMITER, request.delimiter());
      Page<TableScan.Entry> page = pager.page(bound, request.continuationToken(),
          Cursor.startAfter(request.startAfter()), max,
          objects(view, request.volume(), request.bucket(), request.prefix(),
              request.delimiter()));
      Contents contents = Contents.of(page, request.view());
      return new ListObjectsV2Result(contents.keys, contents.prefixes, page.items().size(),
          page.truncated(), page.nextToken(), contents.columns);
    }
  }

  /**
   * S3 ListObjects (version 1) over an OBJECT_STORE or LEGACY bucket: keys starting with the
   * prefix that sort after the marker (exclusive); with a delimiter, every key whose remainder
   * after the prefix contains it is rolled up into the common prefix ending at its first
   * occurrence, returned once and counted toward max-keys like a key. An item (key or common
   * prefix) is listed only if it sorts after the marker, so a marker that lies in a common prefix
   * (or is one, as {@code NextMarker} may be) skips every key under it: the page is read with one
   * bounded iterator seeked once past that whole prefix ({@link io.sediment.om.listing.TableScan}). {@code NextMarker}
   * follows S3: set only when truncated and a delimiter was given. Paging with
   * {@code NextMarker} (or, without a delimiter, the last key) to the end lists every item once.
   * {@code maxKeys} above the cap is clamped to it; 0 is the empty page S3 answers to
   * max-keys=0 (no keys, no common prefixes, not truncated, no {@code NextMarker}).
   *
   * @throws OmException INVALID_ARGUMENT for a bad argument (including maxKeys &lt; 0),
   *     NOT_FOUND if the volume or bucket is absent, UNIMPLEMENTED for FSO buckets
   */
  public ListObjectsV1Result listObjectsV1(ListObjectsV1Request request) {
    Objects.requireNonNull(request, "request");
    checkObjectsRequest(request.volume(), request.bucket(), request.prefix(),
        request.delimiter());
    OmValidation.checkOptionalText("Marker", request.marker());
    int max = ctx.clampPageSize("max-keys", request.maxKeys());
    String prefix = OmContext.nz(request.prefix());
    String delimiter = request.delimiter() == null || request.delimiter().isEmpty()
        ? null : request.delimiter();
    long stamp = ctx.parsedRows().stamp();
    try (ReadView view = ctx.store().openReadView()) {
      ctx.requireObjectStoreBucket(view, stamp, request.volume(), request.bucket());
      Page<TableScan.Entry> page = Pager.read(
          objects(view, request.volume(), request.bucket(), prefix, delimiter),
          markerCursor(prefix, delimiter, request.marker()), max);
      Contents contents = Contents.of(page, request.view());
      // As S3: NextMarker only when truncated and a delimiter was given.
      return new ListObjectsV1Result(contents.keys, contents.prefixes, page.truncated(),
          delimiter != null ? page.nextKey() : null, contents.columns);
    }
  }

  private static void checkObjectsRequest(String volume, String bucket, String prefix,
      String delimiter) {
    OmValidation.checkBucketArgs(volume, bucket);
    OmValidation.checkOptionalText("Prefix", prefix);
    OmValidation.checkOptionalText("Delimiter", delimiter);
  }

  private static PageSource<TableScan.Entry> objects(ReadView view, String volume, String bucket,
      String prefix, String delimiter) {
    return TableScan.source(view.getTable(KEY_TABLE.name()), OmKeys.bucketPrefix(volume, bucket),
        prefix, delimiter, TableScan.VALUE_ENTRIES);
  }

  /**
   * A ListObjects page split into keys, as {@code view} shows their rows (each row's encoding, or
   * the page's columns when the view is columnar, else {@code null}), and common prefixes.
   */
  private record Contents(List<ByteString> keys, List<String> prefixes, ByteString columns) {
    static Contents of(Page<TableScan.Entry> page, KeyRowView view) {
      List<String> prefixes = new ArrayList<>();
      if (view.columnar()) {
        KeyColumnsWriter columns = new KeyColumnsWriter();
        for (TableScan.Entry e : page.items()) {
          if (e.isPrefix()) {
            prefixes.add(e.name());
          } else {
            columns.add(e.value());
          }
        }
        return new Contents(List.of(), prefixes, columns.finish());
      }
      List<ByteString> keys = new ArrayList<>(page.items().size());
      KeyRowView.Cut cut = view.page();
      for (TableScan.Entry e : page.items()) {
        if (e.isPrefix()) {
          prefixes.add(e.name());
        } else {
          keys.add(cut.of(e.value()));
        }
      }
      return new Contents(keys, prefixes, null);
    }
  }

  /**
   * The cursor of a V1 marker: the common prefix the marker rolls up into (with a delimiter,
   * when the marker starts with the prefix and its remainder contains the delimiter), skipped
   * whole because it sorts at or before the marker; otherwise the marker itself, exclusive.
   */
  static Cursor markerCursor(String prefix, String delimiter, String marker) {
    if (marker == null || marker.isEmpty()) {
      return null;
    }
    if (delimiter != null && marker.startsWith(prefix)) {
      int at = marker.indexOf(delimiter, prefix.length());
      if (at >= 0) {
        return new Cursor(marker.substring(0, at + delimiter.length()), true);
      }
    }
    return new Cursor(marker, false);
  }

  private static <T> ListPage<T> listPage(Page<T> page) {
    return new ListPage<>(page.items(), page.truncated(), page.nextToken());
  }
}
