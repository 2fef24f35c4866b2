package dev.feedstore.core.store;

/**
 * Reads a {@link StreamRecord} from one row of a store's answer: the columns of {@link
 * StreamRecordRow}, in its order, numbered from 1, from whatever gives a row's values by number (a
 * {@code ResultSet}'s {@code getObject}, say), so that every store reads a record the same way and
 * this module needs no database driver. Stateless.
 */
public final class StreamRecordColumns {
  /**
   * The values of one row by column number, from 1: whole numbers as any {@link Number}, absent
   * values as null.
   *
   * @param <E> what reading a value may throw
   */
  @FunctionalInterface
  public interface Values<E extends Exception> {
    /** The value of the column numbered {@code column}. */
    Object at(int column) throws E;
  }

  private StreamRecordColumns() {}

  /**
   * The record of the row's first {@link StreamRecordRow#WIDTH} columns.
   *
   * @throws E what {@code row} throws, as it throws it
   */
  public static <E extends Exception> StreamRecord read(Values<E> row) throws E {
    Object[] values = new Object[StreamRecordRow.WIDTH];
    for (int i = 0; i < values.length; i++) {
      values[i] = row.at(i + 1);
    }
    return StreamRecordRow.record(values);
  }
}
