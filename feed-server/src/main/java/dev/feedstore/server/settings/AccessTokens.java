package dev.feedstore.server.settings;

import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.Namespace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Who may call the server: bearer tokens, each allowed to read, or read and append to, some spaces
 * or all of them, whole or only some of their namespaces. The server keeps only the SHA-256 of each
 * token, so the file that lists them holds no secret a reader could replay.
 *
 * <p>The file has one grant a line: {@code SHA256-HEX read|write|admin SPACE[,SPACE...]|*
 * [namespaces=NAMESPACE[,NAMESPACE...]]}, where the first field is the lower-case hex SHA-256 of
 * the token's UTF-8 bytes (for example {@code printf %s "$TOKEN" | sha256sum}); {@code read}
 * allows Query, Subscribe, ListFeeds and Watch, {@code write} those and Append, {@code admin}
 * those and Compact and SetRetention (which remove history); {@code *} means every space. Without
 * the fourth field the grant is space-wide; with it, it covers only the feeds of those namespaces
 * in those spaces (an admin grant is always space-wide). A token may be listed on several lines:
 * its grants add up. Blank lines and lines starting with {@code #} are skipped. Immutable and
 * thread-safe.
 */
public final class AccessTokens {
  private static final Pattern HASH = Pattern.compile("[0-9a-f]{64}");
  /** How the fourth field of a line starts: the namespaces the grant is limited to. */
  private static final String NAMESPACES = "namespaces=";

  /**
   * What one token may do: read, write (read and append), or admin (write, and change a space's
   * history: compact it, set its retention), in some spaces or every space, and there in every
   * namespace ({@code namespaces} empty: space-wide) or only in the namespaces listed.
   *
   * @param write whether the token may append too ({@link #of} sets it for {@code write} and {@code admin})
   * @param spaces the space ids the grant names; ignored when {@code everySpace}
   * @param everySpace whether the grant covers every space ({@code *})
   * @param admin whether the token may also remove history (Compact, SetRetention)
   * @param namespaces the namespaces of the spaces the grant covers; empty when it covers the whole
   *     spaces, feeds without a namespace included
   */
  public record Grant(boolean write, Set<String> spaces, boolean everySpace, boolean admin, Set<Namespace> namespaces) {
    /**
     * The grant, with copies of the sets.
     *
     * @throws NullPointerException if a set or an element is null
     * @throws IllegalArgumentException if an admin grant lists namespaces
     */
    public Grant {
      spaces = Set.copyOf(spaces);
      namespaces = Set.copyOf(namespaces);
      if (admin && !namespaces.isEmpty()) {
        throw new IllegalArgumentException(ADMIN_IS_SPACE_WIDE);
      }
    }

    /** A space-wide grant. */
    public Grant(boolean write, Set<String> spaces, boolean everySpace, boolean admin) {
      this(write, spaces, everySpace, admin, Set.of());
    }

    /** A space-wide read or write grant. */
    public Grant(boolean write, Set<String> spaces, boolean everySpace) {
      this(write, spaces, everySpace, false);
    }

    /** Whether the grant covers some or all of {@code spaceId}. */
    public boolean names(String spaceId) {
      return everySpace || spaces.contains(spaceId);
    }

    /** Whether the grant covers every feed of {@code spaceId}, feeds without a namespace included. */
    public boolean spaceWide(String spaceId) {
      return names(spaceId) && namespaces.isEmpty();
    }

    /** Whether the token may read the feeds of {@code namespace} (empty: feeds without one) in {@code spaceId}. */
    public boolean mayRead(String spaceId, Optional<Namespace> namespace) {
      return names(spaceId) && (namespaces.isEmpty() || namespace.filter(namespaces::contains).isPresent());
    }

    /** Whether the token may append to the feeds of {@code namespace} (empty: feeds without one) in {@code spaceId}. */
    public boolean mayWrite(String spaceId, Optional<Namespace> namespace) {
      return write && mayRead(spaceId, namespace);
    }

    /** Whether the token may remove history of {@code spaceId} (Compact, SetRetention). */
    public boolean mayAdminister(String spaceId) {
      return admin && spaceWide(spaceId);
    }

    /**
     * The grant of {@code level} ({@code read}, {@code write} or {@code admin}) over {@code spaces},
     * or every space, and {@code namespaces} (empty: space-wide).
     *
     * @throws IllegalArgumentException naming the rule an admin grant with namespaces breaks
     */
    public static Grant of(String level, Set<String> spaces, boolean everySpace, Set<Namespace> namespaces) {
      boolean admin = level.equals("admin");
      return new Grant(admin || level.equals("write"), spaces, everySpace, admin, namespaces);
    }
  }

  /** Why an admin grant names no namespace. */
  static final String ADMIN_IS_SPACE_WIDE = "an admin grant is space-wide (Compact and SetRetention remove the"
      + " history of the whole space), so it lists no namespaces; grant the namespaces with read or write";

  private final Map<String, List<Grant>> byHash;

  private AccessTokens(Map<String, List<Grant>> byHash) {
    this.byHash = Map.copyOf(byHash);
  }

  /**
   * Reads a tokens file.
   *
   * @throws IllegalArgumentException naming the file and line of a line that does not parse
   * @throws UncheckedIOException if the file cannot be read
   */
  public static AccessTokens read(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the access tokens file " + file, e);
    }
    Map<String, List<Grant>> grants = new HashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String where = file + " line " + (i + 1) + ": ";
      try {
        String[] fields = line.split("\\s+");
        grants.computeIfAbsent(hash(fields), hash -> new ArrayList<>()).add(grant(fields));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(where + e.getMessage(), e);
      }
    }
    if (grants.isEmpty()) {
      throw new IllegalArgumentException(file + " lists no token: no call could be made");
    }
    grants.replaceAll((hash, list) -> List.copyOf(list));
    return new AccessTokens(grants);
  }

  /** The hash a line's fields start with, once they are as many as a line has. */
  private static String hash(String[] fields) {
    if (fields.length != 3 && fields.length != 4) {
      throw new IllegalArgumentException("expected 'SHA256-HEX read|write|admin SPACES [" + NAMESPACES
          + "NAMESPACES]', got " + fields.length + " fields");
    }
    if (!HASH.matcher(fields[0]).matches()) {
      throw new IllegalArgumentException("the first field must be the 64 lower-case hex digits of the"
          + " token's SHA-256, not the token itself");
    }
    return fields[0];
  }

  /** The grant of a line's fields after its hash. */
  private static Grant grant(String[] fields) {
    if (!Set.of("read", "write", "admin").contains(fields[1])) {
      throw new IllegalArgumentException("the second field must be read, write or admin, was '" + fields[1] + "'");
    }
    boolean every = fields[2].equals("*");
    Set<String> spaces = every ? Set.of() : names("space", fields[2]);
    Set<Namespace> namespaces = new LinkedHashSet<>();
    if (fields.length == 4) {
      if (!fields[3].startsWith(NAMESPACES)) {
        throw new IllegalArgumentException("the fourth field, if any, must be '" + NAMESPACES
            + "NAMESPACE[,NAMESPACE...]' (the namespaces the grant is limited to), was '" + fields[3] + "'");
      }
      for (String name : names("namespace", fields[3].substring(NAMESPACES.length()))) {
        namespaces.add(namespace(name));
      }
    }
    return Grant.of(fields[1], spaces, every, namespaces);
  }

  /**
   * The namespace {@code name} of a grant.
   *
   * @throws IllegalArgumentException naming it and the rule when it is not one
   */
  public static Namespace namespace(String name) {
    try {
      return Namespace.of(name);
    } catch (InvalidValueException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /**
   * A warning when others than the owner of {@code file} may write it: whoever can write the file
   * can grant themselves access. Empty when only the owner may, or when the file system has no
   * POSIX permissions. Group-writable files are warned of too: a deployment's group often holds
   * more users than the one the server runs as.
   */
  public static Optional<String> permissionWarning(Path file) {
    Set<PosixFilePermission> permissions;
    try {
      permissions = Files.getPosixFilePermissions(file);
    } catch (IOException | UnsupportedOperationException e) {
      return Optional.empty();
    }
    String who = permissions.contains(PosixFilePermission.OTHERS_WRITE) ? "everyone"
        : permissions.contains(PosixFilePermission.GROUP_WRITE) ? "its group" : null;
    if (who == null) {
      return Optional.empty();
    }
    return Optional.of("the access tokens file " + file + " is writable by " + who + " ("
        + PosixFilePermissions.toString(permissions) + "): whoever can write it can grant themselves access; make it"
        + " writable by its owner only: chmod go-w " + file);
  }

  /** The comma-separated {@code kind} names of {@code field}, each once. */
  private static Set<String> names(String kind, String field) {
    Set<String> names = new LinkedHashSet<>();
    for (String name : field.split(",", -1)) {
      if (name.isEmpty()) {
        throw new IllegalArgumentException("an empty " + kind + " name in '" + field
            + "' (two commas in a row, or one at an end)");
      }
      if (!names.add(name)) {
        throw new IllegalArgumentException(kind + " '" + name + "' is listed twice in '" + field + "'");
      }
    }
    return names;
  }

  /** What {@code token} may do: the grants of its lines, or empty if it is not listed. */
  public Optional<List<Grant>> grantsFor(String token) {
    return Optional.ofNullable(byHash.get(sha256(token)));
  }

  /** The lower-case hex SHA-256 of the token's UTF-8 bytes: what the tokens file lists. */
  public static String sha256(String token) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest).toLowerCase(Locale.ROOT);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
