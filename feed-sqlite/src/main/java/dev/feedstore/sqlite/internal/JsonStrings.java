package dev.feedstore.sqlite.internal;

import dev.feedstore.core.store.StoreException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * JSON arrays of identifier strings, as stored in the {@code subscriptions} table. The values are
 * feed ids and namespaces, whose characters never need escaping; anything else is refused.
 */
final class JsonStrings {
  private JsonStrings() {}

  static String encode(Collection<String> values) {
    StringBuilder json = new StringBuilder("[");
    for (String value : values) {
      for (int i = 0; i < value.length(); i++) {
        char c = value.charAt(i);
        if (c == '"' || c == '\\' || c < 0x20) {
          throw new IllegalArgumentException("cannot store '" + value + "' in a JSON id list");
        }
      }
      if (json.length() > 1) {
        json.append(',');
      }
      json.append('"').append(value).append('"');
    }
    return json.append(']').toString();
  }

  static List<String> decode(String json) {
    String body = json.strip();
    if (!body.startsWith("[") || !body.endsWith("]")) {
      throw new StoreException("malformed JSON id list in the store: " + json);
    }
    body = body.substring(1, body.length() - 1).strip();
    List<String> values = new ArrayList<>();
    if (body.isEmpty()) {
      return values;
    }
    for (String item : body.split(",", -1)) {
      String quoted = item.strip();
      if (quoted.length() < 2 || !quoted.startsWith("\"") || !quoted.endsWith("\"")) {
        throw new StoreException("malformed JSON id list in the store: " + json);
      }
      values.add(quoted.substring(1, quoted.length() - 1));
    }
    return values;
  }
}
