package dev.feedstore.client.internal;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.json.JsonPointer;
import dev.feedstore.core.query.DocumentId;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.ParsedBlock;
import dev.feedstore.core.query.result.DocumentChange;
import dev.feedstore.core.store.DocumentVersions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The current versions of the documents of one scope and document key, as one read transaction of
 * a replica sees them, at one time of evaluation: a document's current version is its last block
 * in the order of versions ({@link DocumentVersions}) that the query's evaluator takes for a version
 * of it ({@link LiveQuery#documentOf}), leaving out the blocks sync refuses ({@link
 * UnpushableBlocks}). Every query with the same space, scope and key has the same
 * current versions, so one of these serves them all in a round. Not thread-safe; lives for one
 * round.
 */
final class CurrentVersions {
  /** Candidates read at a time when looking a document up by key: most documents need the first. */
  private static final int PAGE = 8;

  private final DocumentVersions versions;
  private final LiveQuery query;
  private final long evaluatedAt;
  private final UnpushableBlocks unpushable;
  private List<ParsedBlock> all;
  /** Blocks read so far, counted so that tests can see what a change cost. */
  private long read;

  /**
   * @param query any query of the scope and key: only its space, scope and key are used
   * @param evaluatedAt the time of evaluation, the receive time of pending versions
   * @param unpushable the blocks that are no versions
   */
  CurrentVersions(DocumentVersions versions, LiveQuery query, long evaluatedAt, UnpushableBlocks unpushable) {
    this.versions = versions;
    this.query = query;
    this.evaluatedAt = evaluatedAt;
    this.unpushable = unpushable;
  }

  /** The current version of every document in the scope; reads every block of the scope once. */
  List<ParsedBlock> all() {
    if (all == null) {
      Map<DocumentId, ParsedBlock> current = new LinkedHashMap<>();
      versions.forEach(query.space(), query.scope(), version -> {
        ParsedBlock parsed = parse(version);
        documentOf(version, parsed).ifPresent(id -> current.put(id, parsed));
      });
      all = List.copyOf(current.values());
    }
    return all;
  }

  /**
   * What the documents {@code ids} are now: each one's current version, or its removal when it has
   * none. Reads each document's newest candidates (an index serves a key the store can look up);
   * when the store cannot look the key up, reads the scope once for all of them.
   */
  List<DocumentChange> of(Collection<DocumentId> ids) {
    Optional<JsonPointer> pointer = query.key().pointer();
    if (pointer.isPresent() && !versions.looksUp(pointer.get())) {
      return scanned(ids);
    }
    List<DocumentChange> changes = new ArrayList<>(ids.size());
    for (DocumentId id : ids) {
      Optional<ParsedBlock> current = pointer.isPresent() ? byKey(pointer.get(), id) : ofFeed(id);
      changes.add(current.map(DocumentChange::current).orElseGet(() -> DocumentChange.removed(id)));
    }
    return changes;
  }

  /** How many blocks this has read. */
  long blocksRead() {
    return read;
  }

  /** A block read, ready for evaluation. */
  ParsedBlock parse(DocumentVersions.Version version) {
    read++;
    return ParsedBlock.of(version.block(), version.namespace(), evaluatedAt);
  }

  /** The document a block is a version of, if it is one. */
  private Optional<DocumentId> documentOf(DocumentVersions.Version version, ParsedBlock parsed) {
    return unpushable.leaveOut(version.block(), version.namespace()) ? Optional.empty() : query.documentOf(parsed);
  }

  private Optional<ParsedBlock> ofFeed(DocumentId id) {
    FeedId feed = FeedId.of(((DocumentId.Text) id).value());
    return newest(id, (skip, limit) -> versions.newestOfFeed(query.space(), feed, skip, limit));
  }

  private Optional<ParsedBlock> byKey(JsonPointer pointer, DocumentId id) {
    return newest(id, (skip, limit) -> versions.newestByKey(query.space(), pointer, id, skip, limit));
  }

  /** The newest of the candidates that is a version of {@code id}, read a page at a time. */
  private Optional<ParsedBlock> newest(DocumentId id, Candidates candidates) {
    for (int skip = 0; ; skip += PAGE) {
      List<DocumentVersions.Version> page = candidates.page(skip, PAGE);
      for (DocumentVersions.Version candidate : page) {
        ParsedBlock parsed = parse(candidate);
        if (documentOf(candidate, parsed).equals(Optional.of(id))) {
          return Optional.of(parsed);
        }
      }
      if (page.size() < PAGE) {
        return Optional.empty();
      }
    }
  }

  /** Candidate versions of a document, newest first. */
  @FunctionalInterface
  private interface Candidates {
    List<DocumentVersions.Version> page(int skip, int limit);
  }

  private List<DocumentChange> scanned(Collection<DocumentId> ids) {
    Set<DocumentId> wanted = new HashSet<>(ids);
    Map<DocumentId, ParsedBlock> current = new LinkedHashMap<>();
    versions.forEach(query.space(), query.scope(), version -> {
      ParsedBlock parsed = parse(version);
      documentOf(version, parsed).filter(wanted::contains).ifPresent(id -> current.put(id, parsed));
    });
    List<DocumentChange> changes = new ArrayList<>(wanted.size());
    for (DocumentId id : wanted) {
      ParsedBlock version = current.get(id);
      changes.add(version == null ? DocumentChange.removed(id) : DocumentChange.current(version));
    }
    return changes;
  }
}
