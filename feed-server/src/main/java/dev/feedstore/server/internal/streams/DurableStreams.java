package dev.feedstore.server.internal.streams;

import static dev.feedstore.server.settings.ServerSettings.FEEDS_PER_SPACE;

import dev.feedstore.core.ActorId;
import dev.feedstore.core.LimitExceededException;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.StreamName;
import dev.feedstore.core.store.AuthorityTransaction;
import dev.feedstore.core.store.ProducerMark;
import dev.feedstore.core.store.StreamRecord;
import dev.feedstore.server.internal.authority.PositionAuthority;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongConsumer;

/**
 * Durable Streams on the position authority: each stream is a feed of one space (the {@code
 * streams-space} setting), each append one block of it, written in one transaction with the
 * stream's record ({@link dev.feedstore.core.store.StreamCatalog}: content type, TTL and expiry,
 * closure, forks, {@code Stream-Seq} and idempotent producers). Offsets are the space's positions
 * ({@link StreamOffset}).
 *
 * <p>A block's key: the actor is the request's {@code Producer-Id} (hashed when it is not a valid
 * actor id) or {@code http}; the sequence is one more than the feed's highest, as a replica's next
 * block would take, counting the blocks retention removed (a replica may hold them). A producer's epoch and sequence live in the record, committed with the block,
 * so a retried append is answered as a duplicate after a crash too.
 *
 * <p>Expiry is checked when a stream is used: an expired stream answers 404 at once and gives its
 * name back on the next write to it. A deleted stream that forks still read stays (410) until its
 * last fork is gone. Deleted streams' blocks stay in their feeds (replicas hold them), and a name
 * created again gets a new feed ({@link StreamName#feedId}).
 *
 * <p>Thread-safe. Writes to the space run one at a time (with its appends); reads run beside them.
 * All methods block on the store.
 */
final class DurableStreams {
  /** What a PUT did. */
  record Created(boolean created, StreamRecord record, StreamOffset tail) {}

  /**
   * What a POST did.
   *
   * @param record the stream's record after it
   * @param tail the stream's tail after it
   * @param appended false when nothing was written (a producer's duplicate, a close-only request)
   * @param producer the producer's state to echo, if the request had one
   */
  record Written(StreamRecord record, StreamOffset tail, boolean appended, Optional<ProducerMark> producer) {}

  private final PositionAuthority authority;
  private final StreamReader reader;
  private final Clock clock;
  private final int feedsPerSpace;
  private final Map<Long, Set<LongConsumer>> closeListeners = new ConcurrentHashMap<>();

  /** @param feedsPerSpace the most streams the space may hold (each takes a feed): {@code feeds-per-space} */
  DurableStreams(PositionAuthority authority, SpaceId space, Clock clock, int feedsPerSpace) {
    this.authority = authority;
    this.reader = new StreamReader(space);
    this.clock = clock;
    this.feedsPerSpace = feedsPerSpace;
  }

  SpaceId space() {
    return reader.space();
  }

  StreamReader reader() {
    return reader;
  }

  /**
   * Creates a stream, or confirms one created with the same configuration.
   *
   * @throws StreamException 409 for a stream of the name with another configuration (or deleted
   *     while forks read it), 404 for a missing fork source, 400 for a fork offset past its tail
   * @throws LimitExceededException if the space holds {@code feeds-per-space} streams already
   */
  Created create(StreamName name, StreamCreate request) {
    long now = clock.millis();
    Created created = authority.write(space(), (tx, appender) -> {
      Optional<StreamRecord> existing = current(tx, name, now);
      if (existing.isPresent() && existing.get().state() != StreamRecord.State.LIVE) {
        throw StreamException.conflict("stream '" + RateLimitedLog.clip(name.value()) + "' was deleted while forks"
            + " still read it; its name is free once they are deleted");
      }
      if (existing.isPresent()) {
        return new Created(false, same(tx, existing.get(), request), new StreamOffset(reader.tail(tx, existing.get())));
      }
      Optional<StreamRecord> source = Optional.empty();
      if (request.forkOf().isPresent()) {
        source = Optional.of(current(tx, request.forkOf().get(), now).orElseThrow(() ->
            StreamException.notFound(request.forkOf().get().value())));
        if (source.get().state() != StreamRecord.State.LIVE) {
          throw StreamException.conflict("stream '" + RateLimitedLog.clip(source.get().name())
              + "' was deleted and cannot be forked");
        }
      }
      StreamContent content = request.content()
          .or(() -> Optional.empty())
          .orElse(source.map(s -> new StreamContent(s.contentType())).orElse(StreamContent.DEFAULT));
      long base = 0;
      List<byte[]> blocks = new ArrayList<>();
      OptionalLong ttl = request.ttlSeconds();
      OptionalLong expires = request.expiresAtMillis();
      if (source.isPresent()) {
        StreamRecord from = source.get();
        if (!content.sameAs(new StreamContent(from.contentType()))) {
          throw StreamException.conflict("a fork has its source's content type " + from.contentType() + ", not "
              + content.value());
        }
        long sourceTail = reader.tail(tx, from);
        base = request.forkOffset().map(StreamOffset::position).orElse(sourceTail);
        if (base > sourceTail) {
          throw StreamException.badRequest("Stream-Fork-Offset " + new StreamOffset(base) + " is past the tail "
              + new StreamOffset(sourceTail) + " of stream '" + RateLimitedLog.clip(from.name()) + "'");
        }
        if (request.forkSubOffset() > 0) {
          blocks.add(prefix(tx, from, base, request.forkSubOffset(), content));
        }
        if (ttl.isEmpty() && expires.isEmpty()) {
          ttl = from.ttlSeconds();
          expires = from.expiresAtMillis();
        }
      }
      byte[] initial = StreamBlocks.data(content, request.body(), true);
      if (initial.length > 0) {
        blocks.add(initial);
      }
      long streams = tx.streams().countNotGone(space());
      if (streams >= feedsPerSpace) {
        throw new LimitExceededException(FEEDS_PER_SPACE.name(), feedsPerSpace, streams + 1,
            "streams of space '" + space().value() + "' with this one (each stream is a feed)");
      }
      long generation = tx.streams().nextGeneration(space(), name.value());
      StreamRecord draft = new StreamRecord(0, space(), name.value(), generation, name.feedId(generation),
          content.value(), now, ttl, expires, now, source.map(s -> OptionalLong.of(s.id())).orElse(OptionalLong.empty()),
          base, request.forkSubOffset(), OptionalLong.empty(), Optional.empty(), Optional.empty(),
          StreamRecord.State.LIVE);
      StreamRecord record = draft.withId(tx.streams().insert(draft));
      if (!blocks.isEmpty()) {
        appender.append(StreamBlocks.of(tx, reader, record, StreamBlocks.HTTP_ACTOR, blocks, now));
      }
      long tail = reader.tail(tx, record);
      if (request.close()) {
        record = record.withClosed(tail, Optional.empty());
        tx.streams().update(record);
      }
      return new Created(true, record, new StreamOffset(tail));
    });
    return created;
  }

  /** The record if {@code request} asks for what it holds; else 409 naming the difference. */
  private StreamRecord same(AuthorityTransaction tx, StreamRecord existing, StreamCreate request) {
    List<String> differences = new ArrayList<>();
    StreamContent content = request.content().orElse(
        request.forkOf().isPresent() ? new StreamContent(existing.contentType()) : StreamContent.DEFAULT);
    if (!content.sameAs(new StreamContent(existing.contentType()))) {
      differences.add("content type " + existing.contentType());
    }
    if (request.ttlSeconds().isPresent() && !request.ttlSeconds().equals(existing.ttlSeconds())) {
      differences.add("Stream-TTL " + (existing.ttlSeconds().isPresent() ? existing.ttlSeconds().getAsLong() : "none"));
    }
    if (request.expiresAtMillis().isPresent() && !request.expiresAtMillis().equals(existing.expiresAtMillis())) {
      differences.add("another Stream-Expires-At");
    }
    if (request.forkOf().isPresent()) {
      Optional<StreamRecord> source = existing.forkOf().isPresent()
          ? tx.streams().get(existing.forkOf().getAsLong()) : Optional.empty();
      if (source.isEmpty() || !source.get().name().equals(request.forkOf().get().value())) {
        differences.add("another source");
      } else if (request.forkOffset().isPresent() && request.forkOffset().get().position() != existing.basePosition()) {
        differences.add("fork offset " + new StreamOffset(existing.basePosition()));
      } else if (request.forkSubOffset() != existing.forkSubOffset()) {
        differences.add("Stream-Fork-Sub-Offset " + existing.forkSubOffset());
      }
    } else if (request.forkSubOffset() > 0) {
      differences.add("no fork");
    }
    if (!differences.isEmpty()) {
      throw StreamException.conflict("stream '" + RateLimitedLog.clip(existing.name()) + "' exists with "
          + String.join(", ", differences) + "; delete it first or use another name");
    }
    return existing;
  }

  /** The first {@code units} bytes (JSON: messages) of the source's first block after {@code base}. */
  private byte[] prefix(AuthorityTransaction tx, StreamRecord source, long base, long units, StreamContent content) {
    StreamReader.Read next = reader.after(tx, source, base, 1, Long.MAX_VALUE);
    if (next.blocks().isEmpty()) {
      throw StreamException.badRequest("Stream-Fork-Sub-Offset " + units + " names data after the fork offset, and"
          + " stream '" + RateLimitedLog.clip(source.name()) + "' has none there");
    }
    byte[] data = next.blocks().get(0).data().toByteArray();
    if (content.isJson()) {
      List<String> messages = StreamJson.ofBlock(new String(data, StandardCharsets.UTF_8));
      if (units > messages.size()) {
        throw StreamException.badRequest("Stream-Fork-Sub-Offset " + units + " is more than the " + messages.size()
            + " messages of the append after the fork offset");
      }
      return StreamJson.block(messages.subList(0, (int) units)).getBytes(StandardCharsets.UTF_8);
    }
    if (units > data.length) {
      throw StreamException.badRequest("Stream-Fork-Sub-Offset " + units + " is more than the " + data.length
          + " bytes of the append after the fork offset");
    }
    return Arrays.copyOf(data, (int) units);
  }

  /**
   * Appends to and/or closes a stream, with the protocol's checks in its order: the stream exists,
   * the producer's tuple, closure, content type, {@code Stream-Seq}.
   *
   * @throws StreamException with the protocol's status and headers for each refusal
   */
  Written write(StreamName name, StreamWrite request) {
    long now = clock.millis();
    Written written = authority.write(space(), (tx, appender) -> {
      StreamRecord record = current(tx, name, now).orElseThrow(() -> StreamException.notFound(name.value()));
      if (record.state() != StreamRecord.State.LIVE) {
        throw gone(record);
      }
      appender.holdCounter(); // the tail read below and a close are ordered with every append of the feed
      Optional<ProducerMark> mark = Optional.empty();
      if (request.producer().isPresent()) {
        StreamWrite.Producer producer = request.producer().get();
        Optional<ProducerMark> state = tx.streams().producer(record.id(), producer.id());
        mark = Optional.of(StreamProducers.accept(state, producer));
        if (mark.get().equals(state.orElse(null)) || duplicate(state, producer)) {
          // A retry of an accepted request: answered as it was, nothing written.
          return new Written(record, new StreamOffset(reader.tail(tx, record)), false, state);
        }
      }
      long tail = reader.tail(tx, record);
      if (record.isClosed()) {
        if (request.data().isEmpty() && request.producer().isEmpty()) {
          return new Written(record, new StreamOffset(tail), false, Optional.empty());
        }
        throw StreamException.conflict("stream '" + RateLimitedLog.clip(record.name()) + "' is closed")
            .with("Stream-Closed", "true").with("Stream-Next-Offset", new StreamOffset(tail).toString());
      }
      StreamContent content = new StreamContent(record.contentType());
      if (request.data().isPresent() && request.content().isPresent() && !request.content().get().sameAs(content)) {
        throw StreamException.conflict("stream '" + RateLimitedLog.clip(record.name()) + "' holds "
            + record.contentType() + ", not " + request.content().get().value());
      }
      if (request.streamSeq().isPresent()) {
        String seq = request.streamSeq().get();
        if (record.streamSeq().isPresent() && compareBytes(seq, record.streamSeq().get()) <= 0) {
          throw StreamException.conflict("Stream-Seq " + RateLimitedLog.clip(seq) + " must be above the last one, "
              + RateLimitedLog.clip(record.streamSeq().get()) + " (compared byte by byte)");
        }
        record = record.withStreamSeq(seq);
      }
      boolean appended = false;
      if (request.data().isPresent()) {
        byte[] data = StreamBlocks.data(content, request.data().get(), false);
        ActorId actor = request.producer().map(p -> StreamBlocks.actor(p.id())).orElse(StreamBlocks.HTTP_ACTOR);
        appender.append(StreamBlocks.of(tx, reader, record, actor, List.of(data), now));
        appended = true;
        tail = reader.tail(tx, record);
      }
      if (request.close()) {
        record = record.withClosed(tail, mark);
      }
      record = record.withTouchedAt(now);
      tx.streams().update(record);
      if (mark.isPresent()) {
        tx.streams().putProducer(record.id(), mark.get());
      }
      return new Written(record, new StreamOffset(tail), appended, mark);
    });
    if (request.close() && written.record().isClosed()) {
      closed(written.record());
    }
    return written;
  }

  private static boolean duplicate(Optional<ProducerMark> state, StreamWrite.Producer producer) {
    return state.isPresent() && state.get().epoch() == producer.epoch() && producer.seq() <= state.get().seq();
  }

  /**
   * Deletes a stream: gone at once, or kept for its forks (410 to everyone else) until the last is
   * deleted, which then takes the sources nobody reads any more with it.
   */
  void delete(StreamName name) {
    long now = clock.millis();
    StreamRecord deleted = authority.write(space(), (tx, appender) -> {
      StreamRecord record = current(tx, name, now).orElseThrow(() -> StreamException.notFound(name.value()));
      if (record.state() != StreamRecord.State.LIVE) {
        throw gone(record);
      }
      appender.holdCounter(); // no block of the feed commits after the delete unrefused
      retire(tx, record);
      return record;
    });
    closed(deleted);
  }

  /** Deletes or expires a live record, and sources it kept alive. */
  private void retire(AuthorityTransaction tx, StreamRecord record) {
    boolean readByForks = tx.streams().forksNotGone(record.id()) > 0;
    tx.streams().update(record.withState(readByForks ? StreamRecord.State.DELETED : StreamRecord.State.GONE));
    OptionalLong source = record.forkOf();
    while (!readByForks && source.isPresent()) {
      StreamRecord from = tx.streams().get(source.getAsLong()).orElseThrow();
      if (from.state() != StreamRecord.State.DELETED || tx.streams().forksNotGone(from.id()) > 0) {
        return;
      }
      tx.streams().update(from.withState(StreamRecord.State.GONE));
      source = from.forkOf();
    }
  }

  /**
   * The record of a stream that is not gone, retiring it first if it expired (in a write
   * transaction); in a read-only one an expired stream is simply absent.
   */
  private Optional<StreamRecord> current(AuthorityTransaction tx, StreamName name, long now) {
    Optional<StreamRecord> record = tx.streams().find(space(), name.value());
    if (record.isPresent() && record.get().expiredAt(now)) {
      retire(tx, record.get());
      record = tx.streams().find(space(), name.value());
    }
    return record;
  }

  /**
   * A look at a stream: its blocks after {@code from} (none for {@link StreamStart#TAIL}, a look at
   * the tail), within {@code maxBlocks} and {@code maxBytes}. A read renews a sliding TTL unless
   * {@code renew} is false (HEAD).
   *
   * @throws StreamException 404 for no such stream (or an expired one), 410 for one deleted while
   *     forks read it or for an offset after which retention removed some of the stream's content,
   *     400 for an offset past the stream's tail
   */
  StreamView read(StreamName name, StreamStart from, int maxBlocks, long maxBytes, boolean renew) {
    long now = clock.millis();
    StreamView view = authority.read(tx -> {
      StreamRecord record = tx.streams().find(space(), name.value())
          .filter(r -> !r.expiredAt(now))
          .orElseThrow(() -> StreamException.notFound(name.value()));
      if (record.state() != StreamRecord.State.LIVE) {
        throw gone(record);
      }
      StreamOffset tail = new StreamOffset(reader.tail(tx, record));
      long floor = tx.blocks().floor(space()).position().value();
      if (from instanceof StreamStart.Tail) {
        return new StreamView(record, tail, List.of(), tail, true, floor);
      }
      StreamOffset after = start(tx, record, from, tail);
      StreamReader.Read read = reader.after(tx, record, after.position(), maxBlocks, maxBytes);
      StreamOffset next = read.blocks().isEmpty() ? after
          : new StreamOffset(read.blocks().get(read.blocks().size() - 1).position().value());
      return new StreamView(record, tail, read.blocks(), next, !read.more(), floor);
    });
    if (renew && view.record().ttlSeconds().isPresent()) {
      authority.write(space(), (tx, appender) -> {
        tx.streams().find(space(), name.value()).filter(r -> r.id() == view.record().id() && !r.expiredAt(now))
            .ifPresent(r -> tx.streams().update(r.withTouchedAt(now)));
        return null;
      });
    }
    return view;
  }

  /**
   * The offset a read from {@code from} reads after: for {@code -1}, the beginning of what the
   * stream still holds (after what retention removed of it); an offset as given, once it is known
   * to skip nothing.
   *
   * @throws StreamException 400 for an offset past the tail, 410 for one after which retention
   *     removed some of the stream's content
   */
  private StreamOffset start(AuthorityTransaction tx, StreamRecord record, StreamStart from, StreamOffset tail) {
    long removed = reader.removed(tx, record);
    if (!(from instanceof StreamStart.After after)) {
      return new StreamOffset(removed);
    }
    StreamOffset offset = after.offset();
    String stream = "stream '" + RateLimitedLog.clip(record.name()) + "'";
    if (offset.position() > tail.position()) {
      throw StreamException.badRequest("offset " + offset + " is past the tail " + tail + " of " + stream
          + ": this server never gave it (read from -1, now, or an offset a read gave)");
    }
    if (offset.position() < removed) {
      throw new StreamException(410, "offset " + offset + " of " + stream + " is before the earliest position it"
          + " still holds: retention removed its data up to " + new StreamOffset(removed) + ", so a read from"
          + " there (or from -1) knows that what lay between is gone");
    }
    return offset;
  }

  /**
   * Calls {@code listener} with the closing position when the stream of {@code record} closes (or is
   * deleted: then with -1) through this server; the returned handle stops it.
   */
  AutoCloseable onClose(StreamRecord record, LongConsumer listener) {
    closeListeners.computeIfAbsent(record.id(), k -> ConcurrentHashMap.newKeySet()).add(listener);
    return () -> closeListeners.computeIfPresent(record.id(), (k, set) -> {
      set.remove(listener);
      return set.isEmpty() ? null : set;
    });
  }

  private void closed(StreamRecord record) {
    Set<LongConsumer> listeners = closeListeners.get(record.id());
    if (listeners != null) {
      long at = record.closedPosition().orElse(-1);
      for (LongConsumer listener : List.copyOf(listeners)) {
        listener.accept(at);
      }
    }
  }

  private static StreamException gone(StreamRecord record) {
    return new StreamException(410, "stream '" + RateLimitedLog.clip(record.name()) + "' was deleted; forks of it"
        + " still read its data");
  }

  private static int compareBytes(String a, String b) {
    return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }
}
