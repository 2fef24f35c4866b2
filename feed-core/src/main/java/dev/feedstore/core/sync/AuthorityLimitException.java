package dev.feedstore.core.sync;

/**
 * The authority refused a request as over one of its limits, which it named: the {@link Authority}
 * that threw it has taken the lower value into its {@link Authority#limits()}, so the next request
 * (made from those limits) is smaller, and may be made at once. Nothing of the refused request was
 * stored.
 */
public class AuthorityLimitException extends AuthorityException {
  private static final long serialVersionUID = 1L;

  private final String limitKey;
  private final long limit;

  /**
   * @param limitKey the limit's setting, e.g. {@code blocks-per-append}
   * @param limit its value on the authority
   */
  public AuthorityLimitException(String message, String limitKey, long limit, Throwable cause) {
    super(message, true, cause);
    this.limitKey = limitKey;
    this.limit = limit;
  }

  /** The setting the request went over, e.g. {@code max-message-bytes}. */
  public String limitKey() {
    return limitKey;
  }

  /** The setting's value on the authority. */
  public long limit() {
    return limit;
  }
}
