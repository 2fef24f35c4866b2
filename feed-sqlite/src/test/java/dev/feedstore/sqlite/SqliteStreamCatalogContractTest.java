package dev.feedstore.sqlite;

import dev.feedstore.core.store.AuthorityStore;
import dev.feedstore.core.store.StreamCatalogContract;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteStreamCatalogContractTest extends StreamCatalogContract {
  @TempDir Path dir;

  @Override
  protected AuthorityStore<?> openFreshStore() {
    return SqliteFeedStore.open(dir.resolve("streams.db"));
  }
}
