package dev.feedstore.proto;

import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * Messages of the protocol left as their encoded bytes: for a program that reads only the fields it
 * needs of what it receives instead of decoding every message into objects, or that sends bytes no
 * generated stub would (a malformed message, several where one is expected).
 */
public final class WireBytes {
  private WireBytes() {}

  /**
   * Sends a message's bytes as they are and reads a received one whole, into one array of the
   * length gRPC says it has; its {@code parse} throws {@link UncheckedIOException} for a message it
   * cannot read, or one that is not the length it said. Thread-safe: holds nothing.
   */
  public static final MethodDescriptor.Marshaller<byte[]> MARSHALLER = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(byte[] value) {
      return new ByteArrayInputStream(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
      try {
        if (stream instanceof KnownLength) { // gRPC's own message stream: one copy, of its known size
          byte[] message = new byte[stream.available()];
          if (stream.readNBytes(message, 0, message.length) == message.length && stream.read() < 0) {
            return message;
          }
          throw new IOException("a message was not the length it said");
        }
        return stream.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  };
}
