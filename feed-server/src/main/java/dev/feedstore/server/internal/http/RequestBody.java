package dev.feedstore.server.internal.http;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.thread.Invocable;

/**
 * A request's body, read without holding a thread: whole up to a limit, or read and discarded so
 * that its refusal reaches the client.
 *
 * <p>Most HTTP clients write their whole body before they read the answer. A server that answers
 * while a body is still arriving, and then closes the connection because the body was not read,
 * makes such a client fail its write (a broken pipe) instead of reading the refusal. So a refusal
 * is written only after the rest of its request's body has been read and thrown away ({@link
 * #discard}), up to {@code http-refused-body-bytes}; the connection then serves the next request.
 * A body larger than that is answered at once, and Jetty closes its connection.
 */
public final class RequestBody {
  private RequestBody() {}

  /** What reading a body came to; called once, on a thread that must not block. */
  public interface Reader {
    /** The whole body. */
    void whole(byte[] body);

    /** The body is longer than the limit: {@code seen} bytes arrived or were declared, and the rest is unread. */
    void tooLarge(long seen);

    /** The body could not be read (the connection failed or timed out). */
    void failed(Throwable failure);
  }

  /** Reads the body of {@code request} into memory, unless it is longer than {@code max} bytes. */
  public static void read(Request request, int max, Reader reader) {
    long declared = request.getLength();
    if (declared > max) {
      reader.tooLarge(declared);
      return;
    }
    new Whole(request, max, declared, reader).run();
  }

  /**
   * Reads and discards what is left of the body of {@code request}, then runs {@code then}: at
   * once when nothing is left or more than {@code bound} bytes are, or when the body fails.
   */
  static void discard(Request request, long bound, Runnable then) {
    if (request.getLength() > bound) {
      then.run();
      return;
    }
    new Discard(request, bound, then).run();
  }

  /** A read that goes on from Jetty's demand callback; the callbacks it makes do not block. */
  private abstract static class Loop implements Runnable, Invocable {
    final Request request;

    Loop(Request request) {
      this.request = request;
    }

    @Override
    public final void run() {
      while (true) {
        Content.Chunk chunk = request.read();
        if (chunk == null) {
          request.demand(this);
          return;
        }
        if (Content.Chunk.isFailure(chunk)) {
          failed(chunk.getFailure());
          return;
        }
        boolean last = chunk.isLast();
        boolean more = take(chunk.getByteBuffer(), last);
        chunk.release();
        if (!more) {
          return;
        }
      }
    }

    /** Takes one chunk's bytes; false when the loop is over (and its outcome told). */
    abstract boolean take(ByteBuffer bytes, boolean last);

    abstract void failed(Throwable failure);

    @Override
    public final InvocationType getInvocationType() {
      return InvocationType.NON_BLOCKING;
    }
  }

  private static final class Whole extends Loop {
    private static final int PRESIZE_LIMIT = 64 * 1024;
    private final int max;
    private final Reader reader;
    private byte[] body;
    private int size;

    Whole(Request request, int max, long declared, Reader reader) {
      super(request);
      this.max = max;
      this.reader = reader;
      // A declared length is taken as a hint only up to 64 KiB: a client that declares a large body
      // and sends nothing holds no more than that.
      this.body = new byte[(int) Math.min(declared >= 0 ? declared : 8 * 1024, Math.min(max, PRESIZE_LIMIT))];
    }

    @Override
    boolean take(ByteBuffer bytes, boolean last) {
      int n = bytes.remaining();
      if ((long) size + n > max) {
        reader.tooLarge((long) size + n);
        return false;
      }
      if (size + n > body.length) {
        body = Arrays.copyOf(body, (int) Math.min(max, Math.max((long) size + n, 2L * body.length)));
      }
      bytes.get(body, size, n);
      size += n;
      if (last) {
        reader.whole(size == body.length ? body : Arrays.copyOf(body, size));
        return false;
      }
      return true;
    }

    @Override
    void failed(Throwable failure) {
      reader.failed(failure);
    }
  }

  private static final class Discard extends Loop {
    private final long bound;
    private final Runnable then;
    private long discarded;

    Discard(Request request, long bound, Runnable then) {
      super(request);
      this.bound = bound;
      this.then = then;
    }

    @Override
    boolean take(ByteBuffer bytes, boolean last) {
      discarded += bytes.remaining();
      if (last || discarded > bound) {
        then.run();
        return false;
      }
      return true;
    }

    @Override
    void failed(Throwable failure) {
      then.run();
    }
  }
}
