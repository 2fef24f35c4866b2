package dev.feedstore.server.internal.access;

import dev.feedstore.core.Namespace;
import dev.feedstore.server.settings.AccessTokens;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The grants of a JWT, from its grants claim: an object whose members {@code read}, {@code write}
 * and {@code admin} each list grants. A grant is a space name ({@code "*"}: every space), which
 * grants the whole space, or an object {@code {"space": SPACE, "namespaces": [NAMESPACE, ...]}},
 * which grants only the feeds of those namespaces there; {@code admin} grants are space-wide:
 *
 * <pre>{@code
 * {"read": ["*"], "write": ["team", {"space": "ops", "namespaces": ["chat", "alerts"]}]}
 * }</pre>
 *
 * <p>A claim of another shape is refused whole, naming the member and the rule. Stateless.
 */
final class GrantsClaim {
  private static final Set<String> LEVELS = Set.of("read", "write", "admin");
  private static final Set<String> NAMESPACE_GRANT = Set.of("space", "namespaces");
  private static final String SHAPE = "{\"read\": [\"*\"], \"write\": [\"team\", {\"space\": \"ops\", \"namespaces\":"
      + " [\"chat\"]}]}";

  /** A claim that is not a grants claim; its message names the claim's member and the rule it breaks. */
  static final class Malformed extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    Malformed(String message) {
      super(message);
    }
  }

  private final String name;

  /** @param name the claim's name, which refusals name */
  GrantsClaim(String name) {
    this.name = name;
  }

  /**
   * The grants {@code claim} holds (as nimbus-jose-jwt parsed it: maps, lists, strings).
   *
   * @throws Malformed naming the member that breaks the shape, and the rule
   */
  List<AccessTokens.Grant> grants(Object claim) {
    if (!(claim instanceof Map<?, ?> map)) {
      throw malformed("must be an object like " + SHAPE + " (space names, * for every space)");
    }
    List<AccessTokens.Grant> grants = new ArrayList<>();
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      Object level = entry.getKey();
      if (!LEVELS.contains(level)) {
        throw malformed("has the member '" + level + "'; its members are read, write and admin, like " + SHAPE);
      }
      if (!(entry.getValue() instanceof List<?> listed)) {
        throw malformed(level + " must be a list of space names and {\"space\", \"namespaces\"} objects");
      }
      Set<String> spaces = new LinkedHashSet<>();
      for (int i = 0; i < listed.size(); i++) {
        String where = level + "[" + i + "]";
        Object grant = listed.get(i);
        if (grant instanceof String space && !space.isEmpty()) {
          spaces.add(space);
        } else if (grant instanceof Map<?, ?> namespaced) {
          grants.add(namespaced((String) level, where, namespaced));
        } else {
          throw malformed(where + " must be a space name (* for every space) or {\"space\": SPACE, \"namespaces\":"
              + " [NAMESPACE, ...]}");
        }
      }
      if (!spaces.isEmpty()) {
        boolean every = spaces.remove("*");
        grants.add(AccessTokens.Grant.of((String) level, spaces, every, Set.of()));
      }
    }
    return grants;
  }

  /** The grant of an object {@code {"space": SPACE, "namespaces": [...]}} at {@code where}. */
  private AccessTokens.Grant namespaced(String level, String where, Map<?, ?> grant) {
    if (!grant.keySet().equals(NAMESPACE_GRANT)) {
      throw malformed(where + " must have exactly the members space and namespaces, has " + grant.keySet());
    }
    if (!(grant.get("space") instanceof String space) || space.isEmpty()) {
      throw malformed(where + ".space must be a space name (* for every space)");
    }
    if (!(grant.get("namespaces") instanceof List<?> listed) || listed.isEmpty()) {
      throw malformed(where + ".namespaces must list one namespace or more (a grant of the whole space is the"
          + " space's name alone)");
    }
    Set<Namespace> namespaces = new LinkedHashSet<>();
    for (int i = 0; i < listed.size(); i++) {
      if (!(listed.get(i) instanceof String namespace)) {
        throw malformed(where + ".namespaces[" + i + "] must be a string");
      }
      try {
        namespaces.add(AccessTokens.namespace(namespace));
      } catch (IllegalArgumentException e) {
        throw malformed(where + ".namespaces[" + i + "]: " + e.getMessage());
      }
    }
    boolean every = space.equals("*");
    try {
      return AccessTokens.Grant.of(level, every ? Set.of() : Set.of(space), every, namespaces);
    } catch (IllegalArgumentException e) {
      throw malformed(where + ": " + e.getMessage());
    }
  }

  private Malformed malformed(String rule) {
    return new Malformed("the access token's '" + name + "' claim " + rule);
  }
}
