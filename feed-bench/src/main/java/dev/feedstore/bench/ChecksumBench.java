package dev.feedstore.bench;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Random;
import java.util.function.LongSupplier;
import java.util.zip.CRC32C;

/**
 * What the store's block checksum costs per block, beside the hash it could have been: CRC32C (the
 * store's choice, see Checksums in docs/storage.md) and SHA-256 over the bytes one block is
 * checked over (a key of about 64 bytes and 256 bytes of data, as the other parts write), computed
 * in this JVM, one after the other, after a warm-up. Not thread-safe.
 */
final class ChecksumBench {
  /** A 26-character feed id, an actor id, sequences, the timestamp and separators: about this much. */
  private static final int KEY_BYTES = 64;
  private static final int DATA_BYTES = 256;

  private final ResultTable table;
  private final int blocks;
  private final PerBlockTimer timer = new PerBlockTimer();

  /** @param blocks how many blocks each candidate checks, measured (as many again to warm up) */
  ChecksumBench(ResultTable table, int blocks) {
    this.table = table;
    this.blocks = blocks;
  }

  void run() throws NoSuchAlgorithmException {
    byte[] key = new byte[KEY_BYTES];
    byte[] data = new byte[DATA_BYTES];
    Random random = new Random(11);
    random.nextBytes(key);
    random.nextBytes(data);
    MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
    LongSupplier crc32c = () -> {
      CRC32C crc = new CRC32C();
      crc.update(key, 0, key.length);
      crc.update(data, 0, data.length);
      return crc.getValue();
    };
    LongSupplier sha = () -> {
      sha256.reset();
      sha256.update(key);
      sha256.update(data);
      return sha256.digest()[0];
    };
    timer.nanosPerBlock(crc32c, blocks);
    timer.nanosPerBlock(sha, blocks);
    double crcNanos = timer.nanosPerBlock(crc32c, blocks);
    double shaNanos = timer.nanosPerBlock(sha, blocks);
    Progress.say("checksum: CRC32C %.0f ns per block, SHA-256 %.0f ns per block (sink %d)", crcNanos, shaNanos,
        timer.sinkBit());
    table.add("checksum.crc32c", crcNanos, "ns/block", shaNanos, ResultTable.Target.NONE);
    table.add("checksum.sha256", shaNanos, "ns/block");
    table.note("checksum.*: one block's checksum (" + KEY_BYTES + " bytes of key, " + DATA_BYTES
        + " of data) in this JVM, " + blocks + " blocks after as many to warm up; baseline of checksum.crc32c = SHA-256");
  }
}
