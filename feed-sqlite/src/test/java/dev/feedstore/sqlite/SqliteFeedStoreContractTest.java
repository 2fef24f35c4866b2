package dev.feedstore.sqlite;

import dev.feedstore.core.store.FeedStore;
import dev.feedstore.core.store.FeedStoreContract;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteFeedStoreContractTest extends FeedStoreContract {
  @TempDir Path dir;

  @Override
  protected FeedStore openFreshStore() {
    return SqliteFeedStore.open(dir.resolve("contract.db"));
  }
}
