package dev.feedstore.server.settings;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
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
 * or all of them. The server keeps only the SHA-256 of each token, so the file that lists them
 * holds no secret a reader could replay.
 *
 * <p>The file has one token a line: {@code SHA256-HEX read|write|admin SPACE[,SPACE...]|*}, where the
 * first field is the lower-case hex SHA-256 of the token's UTF-8 bytes (for example {@code printf
 * %s "$TOKEN" | sha256sum}); {@code read} allows Query, Subscribe, ListFeeds and Watch, {@code
 * write} those and Append, {@code admin} those and Compact and SetRetention (which remove history);
 * {@code *} means every space. Blank lines and lines starting with
 * {@code #} are skipped. Immutable and thread-safe.
 */
public final class AccessTokens {
  private static final Pattern HASH = Pattern.compile("[0-9a-f]{64}");

  /**
   * What one token may do: read, write (read and append), or admin (write, and change a space's
   * history: compact it, set its retention).
   */
  public record Grant(boolean write, Set<String> spaces, boolean everySpace, boolean admin) {
    /** A read or write grant. */
    public Grant(boolean write, Set<String> spaces, boolean everySpace) {
      this(write, spaces, everySpace, false);
    }

    /** Whether the token may remove history of {@code spaceId} (Compact, SetRetention). */
    public boolean mayAdminister(String spaceId) {
      return admin && mayRead(spaceId);
    }

    /** Whether the token may read {@code spaceId}. */
    public boolean mayRead(String spaceId) {
      return everySpace || spaces.contains(spaceId);
    }

    /** Whether the token may append to {@code spaceId}. */
    public boolean mayWrite(String spaceId) {
      return write && mayRead(spaceId);
    }
  }

  private final Map<String, Grant> byHash;

  private AccessTokens(Map<String, Grant> byHash) {
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
    Map<String, Grant> grants = new HashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String where = file + " line " + (i + 1) + ": ";
      String[] fields = line.split("\\s+");
      if (fields.length != 3) {
        throw new IllegalArgumentException(where + "expected 'SHA256-HEX read|write SPACES', got " + fields.length
            + " fields");
      }
      if (!HASH.matcher(fields[0]).matches()) {
        throw new IllegalArgumentException(where + "the first field must be the 64 lower-case hex digits of the"
            + " token's SHA-256, not the token itself");
      }
      boolean write = switch (fields[1]) {
        case "read" -> false;
        case "write", "admin" -> true;
        default -> throw new IllegalArgumentException(where + "the second field must be read, write or admin, was '"
            + fields[1] + "'");
      };
      boolean every = fields[2].equals("*");
      Set<String> spaces = every ? Set.of() : spaces(fields[2], where);
      if (grants.put(fields[0], new Grant(write, spaces, every, fields[1].equals("admin"))) != null) {
        throw new IllegalArgumentException(where + "the token is listed twice");
      }
    }
    if (grants.isEmpty()) {
      throw new IllegalArgumentException(file + " lists no token: no call could be made");
    }
    return new AccessTokens(grants);
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

  private static Set<String> spaces(String field, String where) {
    Set<String> spaces = new LinkedHashSet<>();
    for (String space : field.split(",", -1)) {
      if (space.isEmpty()) {
        throw new IllegalArgumentException(where + "an empty space name in '" + field
            + "' (two commas in a row, or one at an end)");
      }
      if (!spaces.add(space)) {
        throw new IllegalArgumentException(where + "space '" + space + "' is listed twice in '" + field + "'");
      }
    }
    return Set.copyOf(spaces);
  }

  /** What {@code token} may do, or empty if it is not listed. */
  public Optional<Grant> grantFor(String token) {
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
