package dev.feedstore.core.store;

import dev.feedstore.core.InvalidValueException;
import java.util.OptionalLong;

/**
 * How much history a space keeps: at most {@code blocks} blocks, blocks no older than {@code
 * ageMillis}, at most {@code bytes} of block data; each bound absent keeps everything by that
 * measure, and history goes once any bound says so. Retention only ever removes the lowest
 * positions (it raises the space's {@link SpaceFloor}), so a bound by age keeps every block from
 * the first one within the age on, and a bound by bytes keeps the newest blocks whose data fits.
 *
 * <p>Age is measured on the block's receive time ({@link dev.feedstore.core.Block#receivedAt()}: the
 * authority's clock when it positioned the block), not on its author's {@code timestamp}.
 *
 * <p>Immutable.
 *
 * @param blocks the most blocks kept, if bounded (>= 1)
 * @param ageMillis the oldest block kept, in milliseconds before now, if bounded (>= 1)
 * @param bytes the most bytes of block data kept, if bounded (>= 1)
 */
public record Retention(OptionalLong blocks, OptionalLong ageMillis, OptionalLong bytes) {
  /** Keeps everything. */
  public static final Retention KEEP_ALL = new Retention(OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty());

  /**
   * The given bounds, each empty for none.
   *
   * @throws NullPointerException naming the setting if a bound is null rather than empty
   * @throws InvalidValueException naming {@code retain-blocks}, {@code retain-age-ms} or {@code retain-bytes} if
   *     a bound is given and below 1
   */
  public Retention {
    positive("retain-blocks", blocks);
    positive("retain-age-ms", ageMillis);
    positive("retain-bytes", bytes);
  }

  /** A retention from stored or given values, where 0 (or less) means unbounded. */
  public static Retention of(long blocks, long ageMillis, long bytes) {
    return new Retention(bound(blocks), bound(ageMillis), bound(bytes));
  }

  /** True when some bound may remove history. */
  public boolean removesHistory() {
    return blocks.isPresent() || ageMillis.isPresent() || bytes.isPresent();
  }

  private static OptionalLong bound(long value) {
    return value > 0 ? OptionalLong.of(value) : OptionalLong.empty();
  }

  private static void positive(String name, OptionalLong value) {
    if (value == null) {
      throw new NullPointerException(name + " is absent or a value, never null");
    }
    if (value.isPresent() && value.getAsLong() < 1) {
      throw new InvalidValueException(name, "must be >= 1 when given (0 keeps everything)", value.getAsLong());
    }
  }
}
