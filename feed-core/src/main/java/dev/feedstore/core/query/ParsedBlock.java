package dev.feedstore.core.query;

import dev.feedstore.core.Block;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.json.JsonReader;
import dev.feedstore.core.json.JsonValue;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A block as live queries evaluate it: the block, its feed's namespace, the time of evaluation, and
 * its content read as JSON at most once ({@link #json()}), however many predicates of however many
 * queries read it. Make one per block per evaluation (a commit, a pulled batch, a snapshot) and
 * hand the same one to every query.
 *
 * <p>The time of evaluation stands for the receive time of a pending block (one the authority has
 * not positioned): it sorts as the newest, for filters as for ordering. Positioned blocks carry the
 * authority's receive time.
 *
 * <p>What every query of one evaluation would otherwise work out again is worked out once and
 * shared: the content's JSON, the {@link #version()} rows show, and the document the block is a
 * version of under the last {@link DocumentKey} asked ({@link #documentId}).
 *
 * <p>Thread-safe: the content is read under a lock the first time it is asked for; the version and
 * the document are immutable values, and two threads asking at once at worst both work them out.
 */
public final class ParsedBlock {
  private final Block block;
  private final Optional<Namespace> namespace;
  private final long evaluatedAt;
  /** The content as JSON, empty when it is not JSON; null until first read. Guarded by this for writes. */
  private volatile Optional<JsonValue> json;
  /** The version rows show; null until first asked. */
  private volatile RowVersion version;
  /** The document under the key last asked; null until first asked. */
  private volatile KeyedDocument document;

  /** The document of this block under one key. */
  private record KeyedDocument(DocumentKey key, Optional<DocumentId> id) {}

  /** Runs when the content is read as JSON, once at most. */
  private final Runnable onParse;

  private ParsedBlock(Block block, Optional<Namespace> namespace, long evaluatedAt, Runnable onParse) {
    this.block = Objects.requireNonNull(block, "block");
    this.namespace = Objects.requireNonNull(namespace, "namespace");
    this.evaluatedAt = evaluatedAt;
    this.onParse = Objects.requireNonNull(onParse, "onParse");
  }

  /**
   * @param block the block
   * @param namespace the namespace of its feed
   * @param evaluatedAt the time of evaluation, Unix milliseconds: the receive time of the block
   *     while it is pending
   */
  public static ParsedBlock of(Block block, Optional<Namespace> namespace, long evaluatedAt) {
    return new ParsedBlock(block, namespace, evaluatedAt, () -> {});
  }

  /**
   * As {@link #of(Block, Optional, long)}, running {@code onParse} when the content is read as JSON
   * (once at most, on the thread that reads it first): a count of the parsing an evaluation does.
   */
  public static ParsedBlock of(Block block, Optional<Namespace> namespace, long evaluatedAt, Runnable onParse) {
    return new ParsedBlock(block, namespace, evaluatedAt, onParse);
  }

  /** The block evaluated. */
  public Block block() {
    return block;
  }

  /** The namespace of the block's feed; empty for a feed without one. */
  public Optional<Namespace> namespace() {
    return namespace;
  }

  /** The time of evaluation, Unix milliseconds: the receive time a pending block sorts and filters by. */
  public long evaluatedAt() {
    return evaluatedAt;
  }

  /** The content as one strict JSON value ({@link JsonReader}), or empty when it is not JSON. */
  public Optional<JsonValue> json() {
    Optional<JsonValue> read = json;
    if (read == null) {
      synchronized (this) {
        read = json;
        if (read == null) {
          read = JsonReader.tryParse(block.data().toByteArray());
          json = read;
          onParse.run();
        }
      }
    }
    return read;
  }

  /**
   * The receive time: the authority's for a positioned block (empty when the store does not know
   * it), the time of evaluation for a pending one.
   */
  public OptionalLong receivedAt() {
    return block.isPositioned() ? block.receivedAt() : OptionalLong.of(evaluatedAt);
  }

  /** The version a row of this block shows (one value, however many rows show it). */
  public RowVersion version() {
    RowVersion made = version;
    if (made == null) {
      made = new RowVersion(block.key(), block.position(), block.receivedAt());
      version = made;
    }
    return made;
  }

  /**
   * The document this block is a version of under {@code key} ({@link DocumentKey#idOf}), worked
   * out once for the queries that share the key.
   */
  Optional<DocumentId> documentId(DocumentKey key) {
    KeyedDocument known = document;
    if (known != null && (known.key() == key || known.key().equals(key))) {
      return known.id();
    }
    Optional<DocumentId> id = key.read(this);
    document = new KeyedDocument(key, id);
    return id;
  }

  @Override
  public String toString() {
    return "ParsedBlock[" + block + ", namespace " + namespace.map(Namespace::value).orElse("none")
        + ", evaluated at " + evaluatedAt + "]";
  }
}
