package io.sediment.db;

/**
 * A call reached a store, or one of its tables, views or iterators, after the store's close had
 * begun. Nothing was done. Not a bug of the caller: a server shutting down sees it for the calls
 * still arriving, and a client should retry against a running instance. (A table iterator or a
 * batch that its owner closed and then used is a programming error instead, and throws a plain
 * {@link IllegalStateException}.)
 */
public class StoreClosedException extends StoreException {
  private static final long serialVersionUID = 1L;

  public StoreClosedException(String message) {
    super(message);
  }
}
