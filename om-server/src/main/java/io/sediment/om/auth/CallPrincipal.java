package io.sediment.om.auth;

import io.grpc.Context;

/**
 * The principal of the call being served, carried in the gRPC {@link Context}.
 *
 * <p>The authenticating interceptor {@linkplain #bind binds} the principal; handlers read it with
 * {@link #current()}. An interceptor outside it that must learn the principal after the call (the
 * audit log) puts a {@link Slot} in the context first; {@link #bind} fills the slot it finds.
 *
 * <p>Thread-safe.
 */
public final class CallPrincipal {

  private static final Context.Key<Principal> KEY = Context.key("sediment-principal");
  private static final Context.Key<Slot> SLOT = Context.key("sediment-principal-slot");

  private CallPrincipal() {}

  /**
   * The principal bound in the current context, or {@link Principal#ANONYMOUS} if none was bound
   * (the server authenticates no one, or the call has not been authenticated yet).
   */
  public static Principal current() {
    Principal p = KEY.get();
    return p == null ? Principal.ANONYMOUS : p;
  }

  /**
   * A child of the current context carrying {@code principal}; the {@link Slot} of the current
   * context, if any, is filled with it now.
   */
  public static Context bind(Principal principal) {
    Slot slot = SLOT.get();
    if (slot != null) {
      slot.principal = principal;
    }
    return Context.current().withValue(KEY, principal);
  }

  /** A child of the current context carrying {@code slot}. */
  public static Context withSlot(Slot slot) {
    return Context.current().withValue(SLOT, slot);
  }

  /** Where {@link #bind} leaves the principal for an interceptor that runs outside it. */
  public static final class Slot {
    private volatile Principal principal;

    /** The principal bound inside, or null if none was (the call was refused first). */
    public Principal principal() {
      return principal;
    }
  }
}
