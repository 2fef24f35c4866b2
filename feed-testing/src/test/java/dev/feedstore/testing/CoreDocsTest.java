package dev.feedstore.testing;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Every public member of feed-core's packages exported to everyone is documented, and javadoc's
 * doclint passes them. It runs here, beside {@link ApiDocs}, because feed-core's own tests cannot
 * depend on this module, which depends on feed-core; {@code dev.feedstore.core.sync} is exported
 * only to feed-client and is not read.
 */
class CoreDocsTest {
  @Test
  void exportedPackagesAreDocumented() {
    ApiDocs.assertDocumented(Path.of("..", "feed-core", "src", "main", "java"), "dev.feedstore.core",
        "dev.feedstore.core.store", "dev.feedstore.core.json", "dev.feedstore.core.query",
        "dev.feedstore.core.query.result");
  }
}
