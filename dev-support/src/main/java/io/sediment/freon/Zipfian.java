package io.sediment.freon;

import java.util.SplittableRandom;

/**
 * Zipf-distributed ranks over {@code [0, n)} with skew {@code theta} (rank {@code r} drawn with
 * probability proportional to {@code 1 / (r + 1)^theta}), by the closed-form approximation of
 * Gray et al., "Quickly generating billion-record synthetic databases" (SIGMOD 1994): one uniform
 * draw per sample after an O(n) set-up. A bound below {@code n} folds the ranks above it back
 * (modulo). Immutable, thread-safe.
 */
final class Zipfian implements Distribution {

  private final long n;
  private final double theta;
  private final double zetaN;
  private final double alpha;
  private final double eta;
  private final double halfPowTheta;

  Zipfian(long n, double theta) {
    if (n < 1 || theta <= 0 || theta >= 1) {
      throw new IllegalArgumentException("n >= 1 and 0 < theta < 1 expected: " + n + ", " + theta);
    }
    this.n = n;
    this.theta = theta;
    double z = 0;
    for (long i = 1; i <= n; i++) {
      z += 1.0 / Math.pow(i, theta);
    }
    this.zetaN = z;
    double zeta2 = 1 + 1.0 / Math.pow(2, theta);
    this.alpha = 1.0 / (1.0 - theta);
    this.eta = (1 - Math.pow(2.0 / n, 1 - theta)) / (1 - zeta2 / zetaN);
    this.halfPowTheta = Math.pow(0.5, theta);
  }

  @Override
  public long next(SplittableRandom random, long bound) {
    double u = random.nextDouble();
    double uz = u * zetaN;
    long rank;
    if (uz < 1.0) {
      rank = 0;
    } else if (uz < 1.0 + halfPowTheta) {
      rank = 1;
    } else {
      rank = Math.min(n - 1, (long) (n * Math.pow(eta * u - eta + 1, alpha)));
    }
    return rank % bound;
  }

  @Override
  public String toString() {
    return "zipfian(n=" + n + ", theta=" + theta + ")";
  }
}
