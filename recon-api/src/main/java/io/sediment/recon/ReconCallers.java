package io.sediment.recon;

/**
 * Who may read a Recon: decides each request from its {@code Authorization} header. A
 * {@link ReconServer} given one answers 401 (with {@code WWW-Authenticate: Bearer}) for
 * {@link Verdict#UNAUTHENTICATED} and 403 for {@link Verdict#FORBIDDEN}, before the request
 * reaches anything else.
 *
 * <p>Implementations are thread-safe.
 */
@FunctionalInterface
public interface ReconCallers {

  /** What a request may do. */
  enum Verdict { ALLOWED, UNAUTHENTICATED, FORBIDDEN }

  /**
   * @param authorization the request's {@code Authorization} header, or null if it sent none
   */
  Verdict admit(String authorization);
}
