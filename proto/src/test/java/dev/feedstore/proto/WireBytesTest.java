package dev.feedstore.proto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.grpc.KnownLength;
import java.io.ByteArrayInputStream;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

class WireBytesTest {
  private static final byte[] MESSAGE = {10, 3, 'a', 'b', 'c', 16, 1};

  /** A message stream as gRPC hands one over, which says how long it is; {@code said} may be wrong. */
  private static final class Sized extends ByteArrayInputStream implements KnownLength {
    private final int said;

    Sized(byte[] bytes, int said) {
      super(bytes);
      this.said = said;
    }

    @Override
    public synchronized int available() {
      return Math.min(said, super.available());
    }
  }

  @Test
  void aMessageIsSentAndReadAsItsBytes() throws Exception {
    byte[] sent = WireBytes.MARSHALLER.stream(MESSAGE).readAllBytes();

    assertArrayEquals(MESSAGE, sent);
    assertArrayEquals(MESSAGE, WireBytes.MARSHALLER.parse(new ByteArrayInputStream(sent)));
    assertArrayEquals(MESSAGE, WireBytes.MARSHALLER.parse(new Sized(sent, sent.length)));
  }

  @Test
  void aMessageLongerThanItsStreamSaidIsRefused() {
    UncheckedIOException refused = assertThrows(UncheckedIOException.class,
        () -> WireBytes.MARSHALLER.parse(new Sized(MESSAGE, MESSAGE.length - 1)));

    assertEquals("a message was not the length it said", refused.getCause().getMessage());
  }
}
