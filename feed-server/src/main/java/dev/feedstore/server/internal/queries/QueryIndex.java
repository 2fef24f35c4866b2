package dev.feedstore.server.internal.queries;

import dev.feedstore.core.json.JsonValue;
import dev.feedstore.core.query.DocumentId;
import dev.feedstore.core.query.DocumentKey;
import dev.feedstore.core.query.Field;
import dev.feedstore.core.query.ParsedBlock;
import dev.feedstore.core.query.Predicate;
import dev.feedstore.core.query.result.LiveResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which of a space's shared queries each block of a committed range can change, so that a query
 * evaluates only those. A block changes a query's result only when it is a version of a document the
 * query matches now (it may update the row or take the document out), or when it passes the query's
 * filter (it may bring its document in). So a query whose filter needs a field to equal a value
 * ({@code eq}, or {@code in} a list: {@link dev.feedstore.core.query.Filter#indexable}) is found by
 * the value of that field in the block, and by the documents it matches (which its {@link LiveResult}
 * tells: {@link SharedQuery#followMatches}); a query without such a predicate is handed every block.
 * Within a range, a block goes to every query an earlier version of its document in the range went
 * to, since a query's result holds a document's last version: a document that enters and leaves
 * within one range leaves again.
 *
 * <p>Not thread-safe: confined to the evaluation of its {@link SpaceQueries}, which runs one at a
 * time; the match listeners it gives the queries are called from that evaluation too.
 */
final class QueryIndex {
  /** A query in the index, with the blocks of the range being routed that go to it. */
  private static final class Entry {
    final SharedQuery query;
    /** The documents of the query's key, or null for a query handed every block. */
    final Documents documents;
    /** The blocks of the range being routed that go to the query (indexed queries only). */
    final List<ParsedBlock> routed = new ArrayList<>();
    /** The number of the last block routed to the query, so that a block goes to it once. */
    long lastBlock = -1;

    Entry(SharedQuery query, Documents documents) {
      this.query = query;
      this.documents = documents;
    }
  }

  /** The indexed queries of one document key, by the documents they match. */
  private static final class Documents {
    final DocumentKey key;
    /** The queries that match each document. */
    final Map<DocumentId, Entry[]> matchedBy = new HashMap<>();
    /** The queries each document's blocks went to in the range being routed. */
    final Map<DocumentId, Entry[]> routedTo = new HashMap<>();
    /** The document of the block being routed under this key, or null. */
    DocumentId current;
    int queries;

    Documents(DocumentKey key) {
      this.key = key;
    }
  }

  /** The indexed queries of one field, by the values their filters need it to equal. */
  private record Values(Field field, Map<JsonValue, Entry[]> queries) {}

  private final Map<SharedQuery, Entry> entries = new IdentityHashMap<>();
  private final Map<DocumentKey, Documents> byKey = new HashMap<>();
  private final Map<Field, Values> byField = new HashMap<>();
  /** byKey's and byField's values as arrays, for the per-block loop. */
  private Documents[] keys = new Documents[0];
  private Values[] fields = new Values[0];
  /** Blocks routed so far, numbering them. */
  private long blocks;

  /**
   * Makes the index hold exactly {@code running}: the queries it does not hold are added, those it
   * holds that are not running are taken out.
   */
  void holdExactly(List<SharedQuery> running) {
    Set<SharedQuery> now = Collections.newSetFromMap(new IdentityHashMap<>());
    now.addAll(running);
    for (SharedQuery gone : new ArrayList<>(entries.keySet())) {
      if (!now.contains(gone)) {
        remove(gone);
      }
    }
    for (SharedQuery query : running) {
      if (!entries.containsKey(query)) {
        add(query);
      }
    }
  }

  /** How many queries the index holds. */
  int size() {
    return entries.size();
  }

  private void add(SharedQuery query) {
    Optional<Predicate> indexable = query.query().filter().indexable();
    if (indexable.isEmpty()) {
      entries.put(query, new Entry(query, null));
      return;
    }
    Documents documents = byKey.computeIfAbsent(query.query().key(), Documents::new);
    documents.queries++;
    Entry entry = new Entry(query, documents);
    entries.put(query, entry);
    Predicate predicate = indexable.get();
    Values values = byField.computeIfAbsent(predicate.field(), field -> new Values(field, new HashMap<>()));
    for (JsonValue value : predicate.equalValues().orElseThrow()) {
      values.queries().merge(value, new Entry[] {entry}, QueryIndex::joined);
    }
    query.followMatches(new LiveResult.MatchListener() {
      @Override
      public void matched(DocumentId id) {
        documents.matchedBy.merge(id, new Entry[] {entry}, QueryIndex::joined);
      }

      @Override
      public void unmatched(DocumentId id) {
        documents.matchedBy.computeIfPresent(id, (document, queries) -> without(queries, entry));
      }
    });
    arrays();
  }

  private void remove(SharedQuery query) {
    Entry entry = entries.remove(query);
    if (entry.documents == null) {
      return;
    }
    Documents documents = entry.documents;
    query.stopFollowingMatches(
        id -> documents.matchedBy.computeIfPresent(id, (document, queries) -> without(queries, entry)));
    if (--documents.queries == 0) {
      byKey.remove(documents.key);
    }
    Predicate predicate = query.query().filter().indexable().orElseThrow();
    Values values = byField.get(predicate.field());
    for (JsonValue value : predicate.equalValues().orElseThrow()) {
      values.queries().computeIfPresent(value, (v, queries) -> without(queries, entry));
    }
    if (values.queries().isEmpty()) {
      byField.remove(predicate.field());
    }
    arrays();
  }

  private void arrays() {
    keys = byKey.values().toArray(new Documents[0]);
    fields = byField.values().toArray(new Values[0]);
  }

  /**
   * Routes {@code range}, blocks in position order, to the queries each can change: afterwards
   * {@link #blocksFor} gives each query its blocks, in the same order.
   */
  void route(List<ParsedBlock> range) {
    for (Entry entry : entries.values()) {
      entry.routed.clear();
    }
    boolean several = range.size() > 1;
    for (ParsedBlock block : range) {
      long number = blocks++;
      for (Documents documents : keys) {
        DocumentId id = documents.key.idOf(block).orElse(null);
        documents.current = id;
        if (id != null) {
          routeTo(documents.matchedBy.get(id), block, number, several);
          if (several) {
            routeTo(documents.routedTo.get(id), block, number, true);
          }
        }
      }
      for (Values values : fields) {
        if (values.field().readableIn(block)) {
          JsonValue value = values.field().valueIn(block);
          if (value != null) {
            routeTo(values.queries().get(value), block, number, several);
          }
        }
      }
    }
    for (Documents documents : keys) {
      documents.routedTo.clear();
      documents.current = null;
    }
  }

  private static void routeTo(Entry[] queries, ParsedBlock block, long number, boolean several) {
    if (queries == null) {
      return;
    }
    for (Entry entry : queries) {
      if (entry.lastBlock == number) {
        continue;
      }
      entry.lastBlock = number;
      entry.routed.add(block);
      DocumentId id = entry.documents.current;
      if (several && id != null) {
        entry.documents.routedTo.merge(id, new Entry[] {entry}, QueryIndex::joined);
      }
    }
  }

  /** The blocks of the range last routed that {@code query} evaluates: all of them when it is not indexed. */
  List<ParsedBlock> blocksFor(SharedQuery query, List<ParsedBlock> range) {
    Entry entry = entries.get(query);
    return entry == null || entry.documents == null ? range : entry.routed;
  }

  private static Entry[] joined(Entry[] held, Entry[] added) {
    for (Entry entry : held) {
      if (entry == added[0]) {
        return held;
      }
    }
    Entry[] all = Arrays.copyOf(held, held.length + 1);
    all[held.length] = added[0];
    return all;
  }

  /** {@code queries} without {@code entry}; null (no mapping) when none is left. */
  private static Entry[] without(Entry[] queries, Entry entry) {
    int at = -1;
    for (int i = 0; i < queries.length; i++) {
      if (queries[i] == entry) {
        at = i;
      }
    }
    if (at < 0) {
      return queries;
    }
    if (queries.length == 1) {
      return null;
    }
    Entry[] rest = new Entry[queries.length - 1];
    System.arraycopy(queries, 0, rest, 0, at);
    System.arraycopy(queries, at + 1, rest, at, queries.length - at - 1);
    return rest;
  }
}
