package dev.feedstore.server.internal.grpc;

import io.grpc.Drainable;
import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.function.Function;

/**
 * A message already encoded, as gRPC reads it to send it: of known length, drained straight into the
 * transport's buffers from the array, which many streams share ({@link WatchFrame}, {@link
 * LiveQueryFrame}). Read once; not thread-safe (each send reads its own).
 */
final class EncodedStream extends InputStream implements KnownLength, Drainable {
  private final byte[] bytes;
  private InputStream reading;
  private boolean drained;

  EncodedStream(byte[] bytes) {
    this.bytes = bytes;
  }

  /**
   * A marshaller of messages kept encoded: sent from {@code bytes} of each without a copy, read
   * whole into {@code parsed}.
   */
  static <T> MethodDescriptor.Marshaller<T> marshaller(Function<T, byte[]> bytes, Function<byte[], T> parsed) {
    return new MethodDescriptor.Marshaller<>() {
      @Override
      public InputStream stream(T value) {
        return new EncodedStream(bytes.apply(value));
      }

      @Override
      public T parse(InputStream stream) {
        try {
          return parsed.apply(stream.readAllBytes());
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    };
  }

  @Override
  public int drainTo(OutputStream target) throws IOException {
    if (drained || reading != null) {
      throw new IllegalStateException("a frame is read once");
    }
    drained = true;
    // Straight from the array: ByteString.writeTo would copy it first, for every stream sent to.
    target.write(bytes);
    return bytes.length;
  }

  @Override
  public int available() throws IOException {
    if (drained) {
      return 0;
    }
    return reading == null ? bytes.length : reading.available();
  }

  @Override
  public int read() throws IOException {
    return drained ? -1 : input().read();
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    return drained ? -1 : input().read(buffer, offset, length);
  }

  private InputStream input() {
    if (reading == null) {
      reading = new ByteArrayInputStream(bytes);
    }
    return reading;
  }
}
