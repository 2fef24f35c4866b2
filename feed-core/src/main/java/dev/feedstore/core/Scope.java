package dev.feedstore.core;

import java.util.Collections;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Which feeds of a space a read covers: the whole space, or a selection of feeds and namespaces (a
 * feed is in the selection when it is listed or when its namespace is). A namespace covers feeds
 * created after the scope was made. Every scope is an immutable value.
 */
public sealed interface Scope permits Scope.WholeSpace, Scope.Selection {

  /** Every feed of the space. */
  Scope WHOLE_SPACE = new WholeSpace();

  /** No feed at all. */
  Scope NOTHING = new Selection(Set.of(), Set.of());

  /** Exactly the feeds {@code feeds} (empty: {@link #NOTHING}). */
  static Scope feeds(Set<FeedId> feeds) {
    return new Selection(feeds, Set.of());
  }

  /** Every feed of {@code namespace}, those created later included. */
  static Scope namespace(Namespace namespace) {
    return new Selection(Set.of(), Set.of(namespace));
  }

  /** The feeds {@code feeds} and every feed of {@code namespaces}. */
  static Scope of(Set<FeedId> feeds, Set<Namespace> namespaces) {
    return new Selection(feeds, namespaces);
  }

  /** True when a feed with this id and namespace is in the scope. */
  boolean covers(FeedId feedId, Optional<Namespace> namespace);

  /**
   * An estimate of the heap this scope holds, in bytes: what a server pays for each Watch stream
   * that keeps it. A feed id costs 16 bytes; a namespace about 100 plus its length.
   */
  long heapBytes();

  /** True when no feed is in the scope. */
  boolean isEmpty();

  /** Every feed of the space. */
  record WholeSpace() implements Scope {
    @Override
    public boolean covers(FeedId feedId, Optional<Namespace> namespace) {
      return true;
    }

    /** Nothing: the whole space is one shared value. */
    @Override
    public long heapBytes() {
      return 0;
    }

    @Override
    public boolean isEmpty() {
      return false;
    }

    @Override
    public String toString() {
      return "whole space";
    }
  }

  /**
   * The listed feeds plus every feed of the listed namespaces; sorted, so equal scopes are equal.
   * The feed ids are kept compact (16 bytes each), since servers hold the scopes of open streams.
   */
  record Selection(SortedSet<FeedId> feeds, SortedSet<Namespace> namespaces) implements Scope {
    /**
     * The selection of {@code feeds} and {@code namespaces}, copied and sorted.
     *
     * @throws NullPointerException if a set or an element is null
     */
    public Selection(Set<FeedId> feeds, Set<Namespace> namespaces) {
      this(FeedIdSet.copyOf(feeds), sorted(namespaces));
    }

    /**
     * The selection of {@code feeds} and {@code namespaces}, copied: later changes to the sets given do not
     * change it.
     *
     * @throws NullPointerException if a set or an element is null
     */
    public Selection {
      feeds = FeedIdSet.copyOf(feeds);
      namespaces = Collections.unmodifiableSortedSet(new TreeSet<>(namespaces));
    }

    @Override
    public boolean isEmpty() {
      return feeds.isEmpty() && namespaces.isEmpty();
    }

    @Override
    public boolean covers(FeedId feedId, Optional<Namespace> namespace) {
      return feeds.contains(feedId) || (namespace.isPresent() && namespaces.contains(namespace.get()));
    }

    /** The record, the feed ids' array, and per namespace a tree entry, the value and its text. */
    @Override
    public long heapBytes() {
      long bytes = 24 + ((FeedIdSet) feeds).heapBytes() + 48;
      for (Namespace namespace : namespaces) {
        bytes += 40 + 16 + 24 + 16 + namespace.value().length();
      }
      return bytes;
    }

    private static <T extends Comparable<T>> SortedSet<T> sorted(Set<T> values) {
      return new TreeSet<>(values);
    }
  }
}
