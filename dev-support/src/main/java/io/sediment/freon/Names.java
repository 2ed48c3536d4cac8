package io.sediment.freon;

/** The volume and the two buckets (OBJECT_STORE and FILE_SYSTEM_OPTIMIZED) a run works in. */
record Names(String volume, String bucket, String fsoBucket) {

  /** freon's defaults: volume {@code freon}, buckets {@code obs} and {@code fso}. */
  static Names defaults() {
    return new Names("freon", "obs", "fso");
  }
}
