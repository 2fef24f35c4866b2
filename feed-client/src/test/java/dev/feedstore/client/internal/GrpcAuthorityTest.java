package dev.feedstore.client.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import org.junit.jupiter.api.Test;

/** How the authority's failures are told apart: outages are retried soon, refusals on a slow schedule. */
class GrpcAuthorityTest {

  @Test
  void outagesAreRetryableAndRefusalsAreNot() {
    assertTrue(retryable(Status.UNAVAILABLE.withDescription("io exception")));
    assertTrue(retryable(Status.DEADLINE_EXCEEDED));
    assertTrue(retryable(Status.INTERNAL.withDescription("the server's storage failed")));
    assertFalse(retryable(Status.PERMISSION_DENIED.withDescription("the access token may read space 'team'")));
    assertFalse(retryable(Status.UNAUTHENTICATED));
    assertFalse(retryable(Status.INVALID_ARGUMENT));
    assertFalse(retryable(Status.RESOURCE_EXHAUSTED.withDescription("spaces-per-server limit is 100000, ...")));
  }

  @Test
  void aConnectionClosedForPingingTooOftenIsAnOutageNotARefusal() {
    Status tooManyPings = Status.RESOURCE_EXHAUSTED.withDescription("Connection closed after GOAWAY. HTTP/2 error"
        + " code: ENHANCE_YOUR_CALM (Bandwidth exhausted), debug data: too_many_pings");
    assertTrue(retryable(tooManyPings));
    assertTrue(GrpcAuthority.isTooManyPings(tooManyPings));
  }

  private static boolean retryable(Status status) {
    return GrpcAuthority.translate(new StatusRuntimeException(status), "a call").retryable();
  }
}
