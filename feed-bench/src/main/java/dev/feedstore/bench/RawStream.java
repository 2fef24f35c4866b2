package dev.feedstore.bench;

import com.google.protobuf.CodedInputStream;
import dev.feedstore.proto.WireBytes;
import io.grpc.CallOptions;
import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

/**
 * One server-streaming gRPC call of a benchmark with its events left as bytes: the benchmark's
 * streams run beside the server on the same cores, so a subclass reads only what it times instead
 * of decoding every event into objects ({@link #read}), and says when its stream is live ({@link
 * #live}); a failure to read an event fails the stream. gRPC
 * serializes a call's callbacks; the latch, the failure and {@link #close} are for any thread.
 */
abstract class RawStream implements StreamObserver<byte[]> {
  final CountDownLatch live = new CountDownLatch(1);
  final AtomicReference<Throwable> failure = new AtomicReference<>();
  private Context.CancellableContext context;

  /** {@code method} with its requests as messages like {@code prototype} and its events as bytes. */
  static <Q extends com.google.protobuf.Message> MethodDescriptor<Q, byte[]> method(MethodDescriptor<Q, ?> method,
      Q prototype) {
    return method.toBuilder(ProtoUtils.marshaller(prototype), WireBytes.MARSHALLER).build();
  }

  /**
   * Starts {@code count} calls of {@code method}, the {@code i}th with {@code request.apply(i)} into
   * {@code stream.apply(i)}, taking turns over {@code channels}, and waits until each is live.
   *
   * @throws IllegalStateException if one fails or is not live within {@code seconds}
   */
  static <Q, S extends RawStream> List<S> open(List<ManagedChannel> channels, MethodDescriptor<Q, byte[]> method,
      int count, IntFunction<Q> request, IntFunction<S> stream, int seconds) throws InterruptedException {
    List<S> opened = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      S observer = stream.apply(i);
      Q message = request.apply(i);
      ManagedChannel channel = channels.get(i % channels.size());
      RawStream call = observer;
      call.context = Context.current().withCancellation();
      call.context.run(() -> ClientCalls.asyncServerStreamingCall(
          channel.newCall(method, CallOptions.DEFAULT), message, observer));
      opened.add(observer);
    }
    for (S observer : opened) {
      if (!observer.live.await(seconds, TimeUnit.SECONDS) || observer.failure.get() != null) {
        throw new IllegalStateException(method.getBareMethodName() + " was not live within " + seconds + " s",
            observer.failure.get());
      }
    }
    return opened;
  }

  /** Cancels the calls. */
  static void close(List<? extends RawStream> streams) {
    for (RawStream stream : streams) {
      stream.context.cancel(null);
    }
  }

  /** Throws the first failure of a stream, if one failed. */
  static void checkNoneFailed(List<? extends RawStream> streams) {
    for (RawStream stream : streams) {
      if (stream.failure.get() != null) {
        throw new IllegalStateException("a stream failed", stream.failure.get());
      }
    }
  }

  @Override
  public final void onNext(byte[] event) {
    long now = System.nanoTime();
    try {
      CodedInputStream in = CodedInputStream.newInstance(event);
      while (!in.isAtEnd()) {
        read(in, in.readTag(), now);
      }
    } catch (IOException | RuntimeException e) {
      fail(e);
    }
  }

  /**
   * Reads the field of an event that {@code tag} starts, the event received at {@code now}: what the
   * stream times, skipping the rest.
   *
   * @throws IllegalStateException if the event is one the benchmark never expects
   */
  abstract void read(CodedInputStream in, int tag, long now) throws IOException;

  /** The stream failed (the first failure stays); it no longer waits to be live. */
  void fail(Throwable t) {
    failure.compareAndSet(null, t);
    live.countDown();
  }

  @Override
  public void onError(Throwable t) {
    fail(t);
  }

  @Override
  public void onCompleted() {
    fail(new IllegalStateException("the server ended the stream"));
  }
}
