package io.sediment.om;

import static io.sediment.om.OmTestSupport.assertRejected;
import static io.sediment.om.OmTestSupport.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.acl.AclTarget;
import io.sediment.om.acl.AclText;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.multipart.CompletedPart;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.OmAcl;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * ACLs on key-name prefixes of OBJECT_STORE buckets: created by the edit that gives them entries
 * and gone with the one that leaves none; the longest stored prefix of a key's name governs it;
 * a new key inherits its governing prefix's DEFAULT entries instead of its bucket's; bad targets
 * change nothing.
 */
class PrefixAclsTest {

  private static final String V = "vol1";
  private static final String B = "obs";

  @RegisterExtension
  final OmStoreExtension omStore = OmStoreExtension.withOptions(OmStoreOptions.defaults()
      .withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE));
  private OmMetadataStore om;
  private OmAcls acls;

  @BeforeEach
  void open() {
    om = omStore.store();
    acls = new OmAcls(om);
    om.createVolume(V, "alice");
    om.createBucket(V, B, BucketLayout.OBJECT_STORE, null, 0);
    om.createBucket(V, "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    acls.add(AclTarget.bucket(V, B), parse("group:staff:r[DEFAULT]"));
  }

  private static List<OmAcl> parse(String... texts) {
    return Arrays.stream(texts).map(AclText::parse).toList();
  }

  private static List<String> text(List<OmAcl> list) {
    return list == null ? null : AclText.formatAll(list);
  }

  private long prefixRows() {
    return om.dbStore().getTable(OmDBDefinition.PREFIX_TABLE).countRows("");
  }

  @Test
  void aPrefixExistsWhileItsAclHasEntries() {
    AclTarget logs = AclTarget.prefix(V, B, "logs/");
    assertEquals(List.of(), acls.get(logs), "a prefix never set reads as no entries");
    assertEquals(0, prefixRows());

    assertEquals(List.of("user:bob:r"), text(acls.add(logs, parse("user:bob:r"))));
    assertEquals(1, prefixRows());
    assertEquals(List.of("user:bob:rw", "group:ops:l[DEFAULT]"),
        text(acls.add(logs, parse("user:bob:w", "group:ops:l[DEFAULT]"))));
    assertEquals(List.of("user:bob:rw", "group:ops:l[DEFAULT]"), text(acls.get(logs)));

    assertEquals(List.of(), acls.remove(logs, parse("user:bob:a", "group:ops:a[DEFAULT]")));
    assertEquals(0, prefixRows(), "the edit that leaves no entry removes the prefix");
    acls.set(logs, parse("user:bob:r"));
    assertEquals(List.of(), acls.set(logs, List.of()));
    assertEquals(0, prefixRows());
  }

  @Test
  void theLongestStoredPrefixOfAKeysNameGovernsIt() {
    acls.set(AclTarget.prefix(V, B, "a/"), parse("user:one:r"));
    acls.set(AclTarget.prefix(V, B, "a/b/"), parse("user:two:r"));

    assertEquals(List.of("user:two:r"), text(acls.governingPrefix(V, B, "a/b/c")));
    assertEquals(List.of("user:two:r"), text(acls.governingPrefix(V, B, "a/b/")),
        "a key named like the prefix is governed by it");
    assertEquals(List.of("user:one:r"), text(acls.governingPrefix(V, B, "a/bc")));
    assertEquals(List.of("user:one:r"), text(acls.governingPrefix(V, B, "a/x/y/z")));
    assertNull(acls.governingPrefix(V, B, "ab/c"), "prefixes match at '/' boundaries only");
    assertNull(acls.governingPrefix(V, B, "b/a/b/c"));
    assertNull(acls.governingPrefix(V, "other", "a/b/c"));
  }

  @Test
  void aNewKeyInheritsItsGoverningPrefixsDefaultEntriesInsteadOfItsBuckets() {
    acls.set(AclTarget.prefix(V, B, "team/"), parse("group:team:rw[DEFAULT]", "user:lead:a"));
    acls.set(AclTarget.prefix(V, B, "team/private/"), parse("user:lead:a"));

    assertEquals(List.of("user:alice:a", "group:team:rw"),
        text(put(om, V, B, "team/plan", 1).getAclsList()));
    assertEquals(List.of("user:alice:a", "group:staff:r"),
        text(put(om, V, B, "other/plan", 1).getAclsList()), "outside: the bucket's");
    assertEquals(List.of("user:alice:a", "group:staff:r"),
        text(put(om, V, B, "team/private/x", 1).getAclsList()),
        "the governing prefix has no DEFAULT entry: the bucket's");

    String upload = om.multipart().initiate(V, B, "team/big", "carol");
    om.multipart().commitPart(V, B, "team/big", upload, 1, 1, "etag-1");
    assertEquals(List.of("user:carol:a", "group:team:rw"), text(om.multipart().complete(V, B,
        "team/big", upload, List.of(new CompletedPart(1, "etag-1"))).getAclsList()));
  }

  @Test
  void badPrefixTargetsAreRejectedAndChangeNothing() {
    List<OmAcl> entry = parse("user:bob:r");
    assertTrue(assertRejected(om, Code.INVALID_ARGUMENT,
        () -> acls.add(AclTarget.prefix(V, B, "logs"), entry)).getMessage()
        .contains("must end with '/'"));
    assertTrue(assertRejected(om, Code.INVALID_ARGUMENT,
        () -> acls.add(AclTarget.prefix(V, "fso", "dir/"), entry)).getMessage()
        .contains("FILE_SYSTEM_OPTIMIZED"));
    assertRejected(om, Code.NOT_FOUND, () -> acls.add(AclTarget.prefix(V, "nob", "logs/"), entry));
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> acls.add(AclTarget.prefix(V, B, "logs/"), List.of(OmAcl.newBuilder().build())));
  }

  @Test
  void deletingTheBucketDeletesItsPrefixes() {
    acls.set(AclTarget.prefix(V, B, "logs/"), parse("user:bob:r"));
    om.deleteBucket(V, B);
    assertEquals(0, prefixRows());
    om.createBucket(V, B, BucketLayout.OBJECT_STORE, null, 0);
    assertEquals(List.of(), acls.get(AclTarget.prefix(V, B, "logs/")));
  }

  @Test
  void prefixAclsSurviveARestart() {
    acls.set(AclTarget.prefix(V, B, "logs/"), parse("user:bob:r[DEFAULT]"));
    om = omStore.reopen();
    assertEquals(List.of("user:bob:r[DEFAULT]"),
        text(new OmAcls(om).get(AclTarget.prefix(V, B, "logs/"))));
    assertEquals(List.of("user:bob:r[DEFAULT]"),
        text(new OmAcls(om).governingPrefix(V, B, "logs/today")),
        "a store opened with a prefix looks it up");
    assertEquals(List.of("user:alice:a", "user:bob:r"),
        text(put(om, V, B, "logs/today", 1).getAclsList()));
  }

  @Test
  void aStoreThatNeverHeldAPrefixCreatesKeysWithoutSeekingForOne() {
    put(om, V, B, "warm/up", 1);
    long seeks = om.dbStore().getTickerCount("NUMBER_DB_SEEK");
    put(om, V, B, "team/plan", 1);
    assertEquals(0, om.dbStore().getTickerCount("NUMBER_DB_SEEK") - seeks,
        "no prefix ever stored: no iterator over prefixTable");

    acls.set(AclTarget.prefix(V, B, "team/"), parse("group:team:rw[DEFAULT]"));
    acls.set(AclTarget.prefix(V, B, "team/"), List.of());
    assertEquals(0, prefixRows());
    assertEquals(List.of("user:alice:a", "group:staff:r"),
        text(put(om, V, B, "team/memo", 1).getAclsList()),
        "after the last prefix went, keys inherit their bucket's entries again");
  }
}
