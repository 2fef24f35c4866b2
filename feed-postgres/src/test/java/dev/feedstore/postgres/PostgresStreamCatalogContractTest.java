package dev.feedstore.postgres;

import dev.feedstore.core.store.AuthorityStore;
import dev.feedstore.core.store.StreamCatalogContract;
import dev.feedstore.postgres.testing.EmbeddedDatabase;

/** The Durable Streams records' contract on a real PostgreSQL, a fresh database per test. */
class PostgresStreamCatalogContractTest extends StreamCatalogContract {
  @Override
  protected AuthorityStore<?> openFreshStore() {
    return PostgresStore.open(EmbeddedDatabase.settings(EmbeddedDatabase.shared().newDatabase()));
  }
}
