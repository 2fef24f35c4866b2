package dev.feedstore.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.Block;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Checks of what an authority holds of a space after sync settled: nothing lost, nothing twice. Stateless. */
public final class AuthorityHistory {
  private AuthorityHistory() {}

  /**
   * {@code space}, every block an authority holds of a space in position order, has positions dense
   * from 1, each key once, and exactly the data {@code written} (each once: nothing lost, nothing
   * duplicated).
   */
  public static void assertExactlyOnce(List<Block> space, Collection<String> written) {
    for (int i = 0; i < space.size(); i++) {
      assertEquals(i + 1, space.get(i).position().value(), "positions are dense from 1");
    }
    List<String> data = new ArrayList<>(space.stream().map(b -> b.data().toStringUtf8()).toList());
    data.sort(null);
    List<String> expected = new ArrayList<>(written);
    expected.sort(null);
    assertEquals(expected, data, "every written block is on the authority exactly once");
    Set<String> keys = new HashSet<>();
    space.forEach(b -> assertTrue(keys.add(b.key().toString()), "key " + b.key() + " once"));
  }
}
