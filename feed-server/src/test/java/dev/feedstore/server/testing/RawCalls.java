package dev.feedstore.server.testing;

import dev.feedstore.proto.WireBytes;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Calls that send raw bytes as request messages, as no generated stub would: malformed messages,
 * no message, several messages. For tests of what the server does with them.
 */
public final class RawCalls {
  private RawCalls() {}

  /**
   * Calls {@code method} with {@code messages} as its request messages (any number, any bytes),
   * half-closes, and returns the status the call ends with (within 20 s). Responses are read and
   * dropped; a server stream is cancelled after its first response, which counts as OK.
   */
  public static Status call(Channel channel, MethodDescriptor<?, ?> method, List<byte[]> messages) {
    MethodDescriptor<byte[], byte[]> raw = method.toBuilder(WireBytes.MARSHALLER, WireBytes.MARSHALLER).build();
    ClientCall<byte[], byte[]> call = channel.newCall(raw, CallOptions.DEFAULT.withDeadlineAfter(20, TimeUnit.SECONDS));
    CompletableFuture<Status> end = new CompletableFuture<>();
    call.start(new ClientCall.Listener<>() {
      @Override
      public void onMessage(byte[] message) {
        end.complete(Status.OK);
      }

      @Override
      public void onClose(Status status, Metadata trailers) {
        end.complete(status);
      }
    }, new Metadata());
    call.request(1);
    messages.forEach(call::sendMessage);
    call.halfClose();
    Status status = end.orTimeout(20, TimeUnit.SECONDS).join();
    call.cancel("done", null);
    return status;
  }
}
