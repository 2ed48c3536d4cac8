package io.sediment.om.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.EcReplicationConfig;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.ReplicationConfig;
import io.sediment.proto.om.ReplicationFactor;
import io.sediment.proto.om.ReplicationType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The rules of a replication config: which are valid (and the value a refusal names), the
 * written forms of Ozone's shell both ways, the default and the defaulting chain.
 */
class ReplicationConfigsTest {

  private static final ReplicationConfig EC_6_3 = ReplicationConfigs.ec("rs", 6, 3, 1 << 20);

  @ParameterizedTest
  @CsvSource({"RATIS,ONE,RATIS/ONE", "RATIS,THREE,RATIS/THREE", "ratis,3,RATIS/THREE",
      "STAND_ALONE,ONE,STANDALONE/ONE", "standalone,1,STANDALONE/ONE",
      "EC,rs-3-2-1024k,EC/rs-3-2-1024k", "EC,rs-6-3-1024k,EC/rs-6-3-1024k",
      "ec,RS-10-4-4096K,EC/rs-10-4-4096k", "EC,xor-2-1-1024k,EC/xor-2-1-1024k",
      "EC,rs-3-2-524288,EC/rs-3-2-512k", ",THREE,RATIS/THREE", ",rs-6-3-2048k,EC/rs-6-3-2048k",
      "RATIS,,RATIS/THREE", "STAND_ALONE,,STANDALONE/THREE"})
  void theShellFormsParseToValidConfigsAndPrintBack(String type, String replication,
      String text) {
    ReplicationConfig c = ReplicationText.parse(type, replication);
    assertEquals(c, ReplicationConfigs.check(c));
    assertEquals(text, ReplicationText.text(c));
    String[] parts = text.split("/");
    assertEquals(c, ReplicationText.parse(parts[0], parts[1]), "the printed form parses back");
  }

  @Test
  void nothingGivenParsesToNull() {
    assertNull(ReplicationText.parse(null, null));
  }

  @ParameterizedTest
  @CsvSource({"CHAINED,THREE,'CHAINED'", "RATIS,TWO,'TWO'", "RATIS,rs-3-2-1024k,'rs-3-2-1024k'",
      "EC,THREE,'THREE'", "EC,rs-3-2,'rs-3-2'", "EC,,rs-6-3-1024k", "EC,rs-3-2-1024m,'rs-3-2-1024m'",
      "STAND_ALONE,2,'2'", "EC,rs-3-2-9999999999k,'rs-3-2-9999999999k'"})
  void malformedShellFormsAreRefusedNamingThem(String type, String replication, String named) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ReplicationText.parse(type, replication));
    assertTrue(e.getMessage().contains(named), e.getMessage());
  }

  @ParameterizedTest
  @CsvSource({"foo-3-2-1024k,'foo'", "rs-5-2-1024k,5-2", "rs-3-3-1024k,3-3",
      "rs-0-2-1024k,0-2", "xor-3-2-1024k,xor-3-2", "xor-6-3-1024k,xor-6-3",
      "rs-3-2-1000k,1024000 bytes", "rs-3-2-1000,1000 bytes", "rs-3-2-8192k,8388608 bytes",
      "rs-3-2-0,0 bytes"})
  void disallowedEcConfigsAreInvalidArgumentNamingTheValue(String replication, String named) {
    ReplicationConfig c = ReplicationText.parse("EC", replication);
    OmException e = assertThrows(OmException.class, () -> ReplicationConfigs.check(c));
    assertEquals(OmException.Code.INVALID_ARGUMENT, e.code());
    assertTrue(e.getMessage().contains(named), e.getMessage());
  }

  @Test
  void malformedMessagesAreInvalidArgumentNamingTheValue() {
    assertRefused(ReplicationConfig.getDefaultInstance(), "REPLICATION_TYPE_UNSPECIFIED");
    assertRefused(ReplicationConfig.newBuilder().setTypeValue(3).build(), "type number 3");
    assertRefused(ReplicationConfig.newBuilder().setType(ReplicationType.RATIS).build(),
        "REPLICATION_FACTOR_UNSPECIFIED");
    assertRefused(ReplicationConfig.newBuilder().setType(ReplicationType.RATIS)
        .setFactorValue(2).build(), "factor number 2");
    assertRefused(ReplicationConfigs.DEFAULT.toBuilder().setEc(EC_6_3.getEc()).build(),
        "not EC parameters");
    assertRefused(EC_6_3.toBuilder().setFactor(ReplicationFactor.THREE).build(), "THREE");
    assertRefused(ReplicationConfig.newBuilder().setType(ReplicationType.EC).build(),
        "needs its EC parameters");
    assertRefused(ReplicationConfigs.ec("rs", -3, 2, 1 << 20), "-3-2");
  }

  @Test
  void theCodecIsStoredInLowerCase() {
    ReplicationConfig upper = EC_6_3.toBuilder()
        .setEc(EcReplicationConfig.newBuilder(EC_6_3.getEc()).setCodec("RS")).build();
    assertEquals(EC_6_3, ReplicationConfigs.check(upper));
  }

  @Test
  void aNewKeyTakesItsRequestsConfigElseItsBucketsElseTheFallback() {
    ReplicationConfig one = ReplicationText.parse("RATIS", "ONE");
    BucketInfo plain = BucketInfo.getDefaultInstance();
    BucketInfo ecBucket = BucketInfo.newBuilder().setDefaultReplicationConfig(EC_6_3).build();
    assertEquals(one, ReplicationConfigs.resolve(one, ecBucket, ReplicationConfigs.DEFAULT));
    assertEquals(EC_6_3, ReplicationConfigs.resolve(null, ecBucket, one));
    assertEquals(one, ReplicationConfigs.resolve(null, plain, one));
    assertEquals(one, ReplicationConfigs.resolve(null, null, one));
    assertThrows(OmException.class, () -> ReplicationConfigs.resolve(
        ReplicationConfig.getDefaultInstance(), ecBucket, one));
  }

  @Test
  void aRowWithoutAConfigReadsAsRatisThree() {
    ReplicationConfig read = ReplicationConfigs.of(KeyInfo.newBuilder().setKeyName("old").build());
    assertEquals("RATIS/THREE", ReplicationText.text(read));
    assertEquals(3, ReplicationConfigs.requiredNodes(read));
    assertEquals(9, ReplicationConfigs.requiredNodes(EC_6_3));
  }

  @ParameterizedTest
  @ValueSource(strings = {"THREE", "rs-6-3-1024k"})
  void theStoresDefaultMustBeValid(String replication) {
    ReplicationConfig ok = ReplicationText.parse(null, replication);
    assertEquals(ok, OmStoreOptions.defaults().withDefaultReplication(ok).defaultReplication());
    assertEquals(ReplicationConfigs.DEFAULT, OmStoreOptions.defaults().defaultReplication());
    assertThrows(IllegalArgumentException.class, () -> OmStoreOptions.defaults()
        .withDefaultReplication(ReplicationText.parse("EC", "rs-4-2-1024k")));
  }

  private static void assertRefused(ReplicationConfig c, String named) {
    OmException e = assertThrows(OmException.class, () -> ReplicationConfigs.check(c));
    assertEquals(OmException.Code.INVALID_ARGUMENT, e.code());
    assertTrue(e.getMessage().contains(named), e.getMessage());
  }
}
