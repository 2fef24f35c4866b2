package dev.feedstore.core.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CodePointOrderTest {

  @Test
  void supplementaryCharactersSortAfterTheEndOfTheBasicPlane() {
    String ffff = "\uFFFF";
    String supplementary = new String(Character.toChars(0x10000));
    assertTrue(ffff.compareTo(supplementary) > 0, "UTF-16 order puts U+10000 first");
    assertTrue(CodePointOrder.compare(ffff, supplementary) < 0, "code point order puts U+FFFF first");
    assertTrue(JsonString.of(ffff).compareTo(JsonString.of(supplementary)) < 0);
  }

  @Test
  void agreesWithTheOrderOfUtf8Bytes() {
    Random random = new Random(3);
    int[] pool = {'a', 'z', 0x7f, 0xe9, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xfffd, 0xffff, 0x10000, 0x1f600, 0x10ffff};
    List<String> strings = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      StringBuilder s = new StringBuilder();
      for (int n = random.nextInt(4); n > 0; n--) {
        s.appendCodePoint(pool[random.nextInt(pool.length)]);
      }
      strings.add(s.toString());
    }
    for (String a : strings) {
      for (String b : strings.subList(0, 50)) {
        int byBytes = Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
        assertEquals(Integer.signum(byBytes), Integer.signum(CodePointOrder.compare(a, b)), a + " vs " + b);
      }
    }
  }
}
