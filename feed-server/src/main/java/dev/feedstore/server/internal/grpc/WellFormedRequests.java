package dev.feedstore.server.internal.grpc;

import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import io.grpc.ForwardingServerCall;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServiceDescriptor;
import io.grpc.Status;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Makes a service answer {@code INVALID_ARGUMENT} to a call of a unary or server-streaming method
 * that does not carry one well-formed request message: bytes that do not parse as the method's
 * request type (invalid UTF-8 in a string field, a truncated field), or no message at all; and to a
 * call of a client-streaming method at its first message that does not parse (no message is a
 * stream that ended at once).
 * Generated stubs never send these; hand-made clients may. (A second message gRPC handles itself:
 * it resets the stream, which the client sees as {@code CANCELLED}, before any listener runs.)
 *
 * <p>Left to gRPC, a message that does not parse throws from inside the call, which gRPC answers
 * with {@code UNKNOWN} ("Application error processing RPC") and logs as SEVERE with a stack trace,
 * once per call, unthrottled; no message is {@code INTERNAL}. Here the methods take their request
 * as the raw stream and parse it in the call's listener; a failure closes the call and is logged as
 * a rejection, at the rejections' bounded rate. The service behind sees only parsed requests; its
 * interceptors see every call start and end.
 *
 * <p>Stateless and thread-safe; each call's listener is confined to that call's serialized callbacks.
 */
final class WellFormedRequests {
  /** Passes the request's stream through, to be parsed by the listener. */
  private static final MethodDescriptor.Marshaller<InputStream> RAW = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(InputStream value) {
      return value;
    }

    @Override
    public InputStream parse(InputStream stream) {
      return stream;
    }
  };

  private WellFormedRequests() {}

  /** {@code service} with every method parsing its own request, and rejections logged to {@code log}. */
  static ServerServiceDefinition wrap(ServerServiceDefinition service, RateLimitedLog log) {
    ServiceDescriptor original = service.getServiceDescriptor();
    ServiceDescriptor.Builder descriptor = ServiceDescriptor.newBuilder(original.getName())
        .setSchemaDescriptor(original.getSchemaDescriptor());
    List<ServerMethodDefinition<?, ?>> methods = new ArrayList<>();
    for (ServerMethodDefinition<?, ?> method : service.getMethods()) {
      ServerMethodDefinition<?, ?> raw = raw(method, log);
      descriptor.addMethod(raw.getMethodDescriptor());
      methods.add(raw);
    }
    ServerServiceDefinition.Builder wrapped = ServerServiceDefinition.builder(descriptor.build());
    methods.forEach(wrapped::addMethod);
    return wrapped.build();
  }

  private static <Q, R> ServerMethodDefinition<InputStream, R> raw(ServerMethodDefinition<Q, R> definition,
      RateLimitedLog log) {
    MethodDescriptor<Q, R> method = definition.getMethodDescriptor();
    MethodDescriptor<InputStream, R> raw = method.toBuilder(RAW, method.getResponseMarshaller()).build();
    String type = requestType(method);
    ServerCallHandler<InputStream, R> handler = (call, headers) -> {
      ServerCall.Listener<Q> inner = definition.getServerCallHandler().startCall(parsed(call, method), headers);
      return new OneRequest<>(call, inner, method, type, log);
    };
    return ServerMethodDefinition.create(raw, handler);
  }

  /**
   * The call as the service behind sees it: its own method descriptor. No method of a call takes
   * the request type, so only the descriptor differs.
   */
  @SuppressWarnings("unchecked")
  private static <Q, R> ServerCall<Q, R> parsed(ServerCall<InputStream, R> call, MethodDescriptor<Q, R> method) {
    return new ForwardingServerCall.SimpleForwardingServerCall<>((ServerCall<Q, R>) (ServerCall<?, R>) call) {
      @Override
      public MethodDescriptor<Q, R> getMethodDescriptor() {
        return method;
      }
    };
  }

  /** {@code feed.v1.QueryRequest}, or the method's name when its marshaller does not tell. */
  private static String requestType(MethodDescriptor<?, ?> method) {
    if (method.getRequestMarshaller() instanceof MethodDescriptor.PrototypeMarshaller<?> prototype
        && prototype.getMessagePrototype() instanceof com.google.protobuf.Message message) {
      return message.getDescriptorForType().getFullName();
    }
    return "request of " + method.getFullMethodName();
  }

  /** Parses the request of a call and hands it on; rejects a call without a well-formed one. */
  private static final class OneRequest<Q, R> extends ServerCall.Listener<InputStream> {
    private final ServerCall<InputStream, R> call;
    private final ServerCall.Listener<Q> inner;
    private final MethodDescriptor<Q, R> method;
    private final String type;
    private final RateLimitedLog log;
    private boolean received;
    private boolean rejected;

    OneRequest(ServerCall<InputStream, R> call, ServerCall.Listener<Q> inner, MethodDescriptor<Q, R> method,
        String type, RateLimitedLog log) {
      this.call = call;
      this.inner = inner;
      this.method = method;
      this.type = type;
      this.log = log;
    }

    @Override
    public void onMessage(InputStream message) {
      if (rejected) {
        return;
      }
      received = true;
      Q request;
      try {
        request = method.parseRequest(message);
      } catch (RuntimeException e) {
        reject("the request is not a well-formed " + type + ": " + reason(e));
        return;
      }
      inner.onMessage(request);
    }

    @Override
    public void onHalfClose() {
      if (rejected) {
        return;
      }
      if (!received && method.getType().clientSendsOneMessage()) {
        reject("the call must carry one " + type + ", got none");
        return;
      }
      inner.onHalfClose();
    }

    @Override
    public void onReady() {
      if (!rejected) {
        inner.onReady();
      }
    }

    @Override
    public void onCancel() {
      inner.onCancel();
    }

    @Override
    public void onComplete() {
      inner.onComplete();
    }

    private void reject(String description) {
      rejected = true;
      Status status = Status.INVALID_ARGUMENT.withDescription(description);
      log.log("rejected " + method.getBareMethodName() + " from "
          + call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR) + ": " + status.getCode() + ": " + description, null);
      call.close(status, new Metadata());
    }

    /** What the parser said: protobuf's message, which gRPC keeps as the cause of its status. */
    private static String reason(Throwable failure) {
      Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
      return String.valueOf(cause.getMessage());
    }
  }
}
