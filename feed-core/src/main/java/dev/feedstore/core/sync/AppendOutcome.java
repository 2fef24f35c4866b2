package dev.feedstore.core.sync;

import java.util.Optional;

/**
 * How one append of several sent in order ended: its reply, or its failure (as {@link
 * Authority#append} would have thrown it; {@link AppendAbortedException} for one aborted after an
 * earlier refusal of its feed).
 */
public record AppendOutcome(Optional<AppendReply> reply, Optional<AuthorityException> failure) {
  public AppendOutcome {
    if (reply.isPresent() == failure.isPresent()) {
      throw new IllegalArgumentException("an append outcome is a reply or a failure");
    }
  }

  public static AppendOutcome replied(AppendReply reply) {
    return new AppendOutcome(Optional.of(reply), Optional.empty());
  }

  public static AppendOutcome failed(AuthorityException failure) {
    return new AppendOutcome(Optional.empty(), Optional.of(failure));
  }
}
