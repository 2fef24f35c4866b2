package dev.feedstore.bench;

import com.google.protobuf.CodedInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The task documents of {@link LiveQueryServerBench}, as a {@link FanoutAppender.Content}: the
 * block of sequence {@code n} is a version of document {@code n % documents}, written {@code
 * {"due":D,"g":G,"id":I,"k":K,"n":N,"pad":"xx..."}} in {@link AppendWorkload#DATA_BYTES} bytes, its
 * members in their canonical order, so that the rows the server sends carry them as written and a
 * reader finds the due time and the sequence by counting colons. {@code g} is the id modulo {@value
 * #GROUPS}: the shared query ({@code /g = 0}) matches a fifth of the blocks; {@code k} is the id
 * modulo {@code queries}: distinct query {@code q} ({@code /k = q}) matches one block in {@code
 * queries}. A document keeps its group and key, so a new version of a matching document is an
 * update of its row, never a departure. Immutable.
 *
 * @param documents how many documents there are
 * @param queries how many distinct queries there are
 */
record QueryDocuments(int documents, int queries) implements FanoutAppender.Content {
  /** The groups of {@code /g}: the shared query's group is one of them. */
  static final int GROUPS = 5;
  /** The member of the due time, first, and of the sequence, fifth: the colons before their values. */
  private static final int DUE_MEMBER = 1;
  private static final int SEQUENCE_MEMBER = 5;

  QueryDocuments {
    if (documents < GROUPS || queries < 1 || queries > documents) {
      throw new IllegalArgumentException("the live-query server part needs at least " + GROUPS + " documents and"
          + " between 1 and as many distinct queries as documents: " + documents + " documents, " + queries
          + " queries");
    }
  }

  /** The shared query's text form, over namespace {@code namespace}. */
  static String shared(String namespace) {
    return "namespace:" + namespace + " key:/id where /g = 0";
  }

  /** The text form of distinct query {@code q}, over namespace {@code namespace}. */
  static String distinct(String namespace, int q) {
    return "namespace:" + namespace + " key:/id where /k = " + q;
  }

  @Override
  public byte[] data(long sequence, long due) {
    long id = sequence % documents;
    String head = "{\"due\":" + due + ",\"g\":" + id % GROUPS + ",\"id\":" + id + ",\"k\":" + id % queries
        + ",\"n\":" + sequence + ",\"pad\":\"";
    byte[] data = new byte[Math.max(AppendWorkload.DATA_BYTES, head.length() + 2)];
    Arrays.fill(data, (byte) 'x');
    byte[] bytes = head.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(bytes, 0, data, 0, bytes.length);
    data[data.length - 2] = '"';
    data[data.length - 1] = '}';
    return data;
  }

  /** The due time of a document's text of {@code length} bytes, consuming all of them; 0 for none. */
  static final WatchStreams.BlockDue DUE = (in, length) -> {
    long[] values = new long[SEQUENCE_MEMBER + 1];
    read(in, length, values, DUE_MEMBER);
    return values[DUE_MEMBER];
  };

  /**
   * Reads a document's text of {@code length} bytes, consuming all of them: {@code values[i]} is the
   * number after the {@code i}th colon, for {@code i} up to {@code last}.
   */
  static void read(CodedInputStream in, int length, long[] values, int last) throws IOException {
    int read = 0;
    int colons = 0;
    while (read < length && colons < last) {
      if (in.readRawByte() != ':') {
        read++;
        continue;
      }
      read++;
      colons++;
      long value = 0;
      boolean negative = false;
      while (read < length) {
        byte b = in.readRawByte();
        read++;
        if (b == '-') {
          negative = true;
        } else if (b >= '0' && b <= '9') {
          value = value * 10 + (b - '0');
        } else {
          break;
        }
      }
      values[colons] = negative ? -value : value;
    }
    in.skipRawBytes(length - read);
  }

  /** Reads the due time and the sequence of a document's text, as {@link #read} does. */
  static void readDueAndSequence(CodedInputStream in, int length, long[] dueAndSequence) throws IOException {
    long[] values = new long[SEQUENCE_MEMBER + 1];
    read(in, length, values, SEQUENCE_MEMBER);
    dueAndSequence[0] = values[DUE_MEMBER];
    dueAndSequence[1] = values[SEQUENCE_MEMBER];
  }
}
