package dev.feedstore.server.internal.spaces;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What the transports encode once from something the live tail shares between the streams of a
 * space (a recently committed block, a page read for the streams behind), for every stream that
 * sends it: one encoding per {@link Kind}, made by the first stream that needs it. The tail knows no
 * transport; each transport names its own kinds. Thread-safe and lock-free: racing streams may each
 * encode, the first encoding kept is the one every stream gets, and all encode equal values.
 */
public final class Encodings {
  /**
   * One transport's encoding of what the tail shares, a value of type {@code T}; kinds are told
   * apart by identity, so each is made once, as a constant of its transport. Immutable.
   *
   * @param <T> what the encoding is
   */
  public static final class Kind<T> {
    private final String name;

    /** @param name what the encoding is, for messages */
    public Kind(String name) {
      this.name = Objects.requireNonNull(name, "name");
    }

    @Override
    public String toString() {
      return name;
    }
  }

  private static final Object[] NONE = {};
  private static final VarHandle KEPT;

  static {
    try {
      KEPT = MethodHandles.lookup().findVarHandle(Encodings.class, "kept", Object[].class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /**
   * The encodings made so far, each kind followed by its encoding; replaced whole, never changed.
   * Empty until a stream sends the shared thing: most blocks are sent by one transport or none.
   */
  @SuppressWarnings("unused") // read and written through KEPT
  private volatile Object[] kept = NONE;

  /** The encoding of {@code kind}: the one kept when there is one, else what {@code encode} makes, kept. */
  @SuppressWarnings("unchecked") // a kind is kept only with what its own encode made
  public <T> T get(Kind<T> kind, Supplier<T> encode) {
    T made = null;
    while (true) {
      Object[] now = (Object[]) KEPT.getAcquire(this);
      for (int i = 0; i < now.length; i += 2) {
        if (now[i] == kind) {
          return (T) now[i + 1];
        }
      }
      if (made == null) {
        made = Objects.requireNonNull(encode.get(), kind.name);
      }
      Object[] next = Arrays.copyOf(now, now.length + 2);
      next[now.length] = kind;
      next[now.length + 1] = made;
      if (KEPT.compareAndSet(this, now, next)) {
        return made;
      }
    }
  }
}
