package dev.feedstore.server.internal.errors;

import static dev.feedstore.server.settings.ServerSettings.MAX_MESSAGE_BYTES;

import dev.feedstore.core.CursorCompactedException;
import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.query.InvalidQueryException;
import dev.feedstore.core.LimitExceededException;
import dev.feedstore.core.Limits;
import dev.feedstore.core.store.CorruptBlockException;
import dev.feedstore.core.store.StorageFaultException;
import dev.feedstore.core.store.StoreException;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A failed call as any transport reports it: a code and a message a person can act on, naming
 * the value and the rule. Bad input is {@code INVALID_ARGUMENT}, a limit {@code RESOURCE_EXHAUSTED},
 * a sequence conflict {@code ALREADY_EXISTS}, an unknown subscription {@code NOT_FOUND}, a cursor
 * below the space's floor and blocks for a stream that is over {@code FAILED_PRECONDITION}, a
 * space's history that went back under an open stream and an append of a stream after a refused one
 * of its feed {@code ABORTED}, shutting down {@code
 * UNAVAILABLE}; a block stored corrupt is {@code DATA_LOSS} naming the block (its key is the
 * caller's data, not a server detail). A fault of the server's storage says what is wrong
 * without the server's paths (the log has them): a full disk is {@code RESOURCE_EXHAUSTED}, a
 * read-only file or an I/O error {@code UNAVAILABLE} (retry, here later or on another server), a
 * damaged file {@code DATA_LOSS}. Anything else is the server's fault, {@code INTERNAL}, whose
 * message does not leak server details.
 *
 * @param code what kind of failure
 * @param message what went wrong and what to do
 * @param retryAfterMillis when the caller may try again, for a refusal that passes with time
 * @param httpStatus the HTTP status: the code's, but 413 for a request over a size limit and 409
 *     for blocks refused because their stream is over (a conflict with the stream's state, as the
 *     Durable Streams protocol answers an append to a closed stream)
 */
public record CallRefusal(ErrorCode code, String message, OptionalLong retryAfterMillis, int httpStatus) {
  /** The limits that bound the size of one request: over them, the request is too large to take. */
  private static final Set<String> SIZE_LIMITS = Set.of(Limits.Key.BLOCK_BYTES, Limits.Key.BLOCKS_PER_APPEND,
      MAX_MESSAGE_BYTES.name());

  CallRefusal(ErrorCode code, String message) {
    this(code, message, OptionalLong.empty(), code.httpStatus());
  }

  /** The refusal that reports {@code failure}. */
  public static CallRefusal of(Throwable failure) {
    if (failure instanceof InvalidValueException || failure instanceof InvalidQueryException) {
      return new CallRefusal(ErrorCode.INVALID_ARGUMENT, failure.getMessage());
    }
    if (failure instanceof LimitExceededException limit) {
      return new CallRefusal(ErrorCode.RESOURCE_EXHAUSTED, failure.getMessage(), OptionalLong.empty(),
          SIZE_LIMITS.contains(limit.limitKey()) ? 413 : ErrorCode.RESOURCE_EXHAUSTED.httpStatus());
    }
    if (failure instanceof RateLimitedException rate) {
      return new CallRefusal(ErrorCode.RESOURCE_EXHAUSTED, failure.getMessage(), OptionalLong.of(rate.retryAfterMillis()),
          ErrorCode.RESOURCE_EXHAUSTED.httpStatus());
    }
    if (failure instanceof AppendConflictException) {
      return new CallRefusal(ErrorCode.ALREADY_EXISTS, failure.getMessage());
    }
    if (failure instanceof CursorCompactedException) {
      return new CallRefusal(ErrorCode.FAILED_PRECONDITION, failure.getMessage());
    }
    if (failure instanceof StreamClosedException) {
      return new CallRefusal(ErrorCode.FAILED_PRECONDITION, failure.getMessage(), OptionalLong.empty(), 409);
    }
    if (failure instanceof EarlierAppendRefusedException) {
      return new CallRefusal(ErrorCode.ABORTED, failure.getMessage());
    }
    if (failure instanceof HistoryRolledBackException) {
      return new CallRefusal(ErrorCode.ABORTED, failure.getMessage());
    }
    if (failure instanceof SubscriptionNotFoundException) {
      return new CallRefusal(ErrorCode.NOT_FOUND, failure.getMessage());
    }
    if (failure instanceof AccessDeniedException denied) {
      return new CallRefusal(denied.authenticated() ? ErrorCode.PERMISSION_DENIED : ErrorCode.UNAUTHENTICATED,
          failure.getMessage());
    }
    if (failure instanceof ShuttingDownException) {
      return new CallRefusal(ErrorCode.UNAVAILABLE, failure.getMessage());
    }
    if (failure instanceof CorruptBlockException) {
      return new CallRefusal(ErrorCode.DATA_LOSS, "the server's copy of " + failure.getMessage()
          + "; reads that do not include this block still work");
    }
    if (failure instanceof StorageFaultException fault) {
      return storageFault(fault);
    }
    if (failure instanceof StoreException) {
      return new CallRefusal(ErrorCode.INTERNAL, "the server's storage failed (details are in the server's log)");
    }
    return new CallRefusal(ErrorCode.INTERNAL, "internal error (details are in the server's log)");
  }

  /** What is wrong with the storage and that the operator resolves it, naming the file but not its directory. */
  private static CallRefusal storageFault(StorageFaultException fault) {
    String name = String.valueOf(fault.file().getFileName());
    return switch (fault.kind()) {
      case FULL -> new CallRefusal(ErrorCode.RESOURCE_EXHAUSTED, "the disk holding the server's database " + name
          + " is full: writes fail until its operator frees space; retry later (reads still work)");
      case READ_ONLY -> new CallRefusal(ErrorCode.UNAVAILABLE, "the server's database " + name
          + " is read-only: writes fail until its operator makes it writable; retry later");
      case IO -> new CallRefusal(ErrorCode.UNAVAILABLE, "the disk holding the server's database " + name
          + " reported an I/O error; retry later (the server's log has the details)");
      case CORRUPT -> new CallRefusal(ErrorCode.DATA_LOSS, "the server's database " + name
          + " is damaged; its operator restores it from a backup (the server's log has the details)");
      case UNREACHABLE -> new CallRefusal(ErrorCode.UNAVAILABLE, "the server cannot reach its database " + name
          + "; retry later, or on another server");
    };
  }
}
