package dev.feedstore.core.json;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * The members of a small JSON object as read: names and values in two arrays, in the order read,
 * looked up by scanning. A parsed document is mostly small objects, and a result holds many of
 * them: this keeps one without a hash table and an entry object per member. Unmodifiable; equal to
 * any map with the same members. Thread-safe (immutable).
 */
final class ObjectMembers extends AbstractMap<String, JsonValue> {
  /** The most members an object keeps this way; a larger one keeps its hash map. */
  static final int MOST = 8;

  private final String[] names;
  private final JsonValue[] values;

  /** The members of {@code read}, at most {@link #MOST} of them, in its order. */
  ObjectMembers(LinkedHashMap<String, JsonValue> read) {
    names = new String[read.size()];
    values = new JsonValue[read.size()];
    int i = 0;
    for (Map.Entry<String, JsonValue> member : read.entrySet()) {
      names[i] = member.getKey();
      values[i] = member.getValue();
      i++;
    }
  }

  @Override
  public int size() {
    return names.length;
  }

  @Override
  public JsonValue get(Object name) {
    for (int i = 0; i < names.length; i++) {
      if (names[i].equals(name)) {
        return values[i];
      }
    }
    return null;
  }

  @Override
  public boolean containsKey(Object name) {
    return get(name) != null;
  }

  @Override
  public JsonValue remove(Object name) {
    throw new UnsupportedOperationException("the members of a JSON object are unmodifiable");
  }

  @Override
  public void clear() {
    throw new UnsupportedOperationException("the members of a JSON object are unmodifiable");
  }

  @Override
  public Set<Map.Entry<String, JsonValue>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<Map.Entry<String, JsonValue>> iterator() {
        return new Iterator<>() {
          private int next;

          @Override
          public boolean hasNext() {
            return next < names.length;
          }

          @Override
          public Map.Entry<String, JsonValue> next() {
            if (next >= names.length) {
              throw new NoSuchElementException();
            }
            int i = next++;
            return Map.entry(names[i], values[i]);
          }
        };
      }

      @Override
      public int size() {
        return names.length;
      }
    };
  }
}
