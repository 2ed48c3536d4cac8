package io.sediment.om.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A UTC clock that stands still until a test moves it forward. Thread-safe. */
public final class MutableClock extends Clock {

  private volatile long millis;

  /** A clock at 2026-01-01T00:00:00Z. */
  public MutableClock() {
    this(Instant.parse("2026-01-01T00:00:00Z").toEpochMilli());
  }

  public MutableClock(long epochMillis) {
    this.millis = epochMillis;
  }

  /** Moves the clock forward by {@code ms} milliseconds. Not atomic with concurrent moves. */
  public void advance(long ms) {
    millis += ms;
  }

  public void advance(Duration d) {
    advance(d.toMillis());
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis);
  }

  @Override
  public long millis() {
    return millis;
  }
}
