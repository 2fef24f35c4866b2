package dev.feedstore.client.internal;

import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.DocumentVersions;
import dev.feedstore.core.sync.Changes;
import java.util.List;
import java.util.Objects;

/**
 * What one commit of a replica did to a space, as live queries are told it: blocks appended here
 * (in order, each the newest version of its document), blocks stored, positioned or moved by sync
 * ({@link Changes}, read again from the file), or a change after which every result of the space is
 * read again (history rewritten, a history gap met, a policy changed). Immutable.
 *
 * @param commit the commit's number, from 1 in the order of commits
 */
record Notice(SpaceId space, long commit, List<DocumentVersions.Version> appended, Changes changes,
    boolean rereadAll) {
  Notice {
    Objects.requireNonNull(space, "space");
    appended = List.copyOf(appended);
    Objects.requireNonNull(changes, "changes");
  }
}
