package dev.feedstore.server;

import dev.feedstore.testing.ApiDocs;
import org.junit.jupiter.api.Test;

/**
 * Every public member of the server's API package is documented, and javadoc's doclint passes it.
 * {@code dev.feedstore.server.settings} is not read yet: its settings carry their documentation in
 * their table entries ({@code Setting.doc}), which a javadoc comment on each would copy.
 */
class ServerDocsTest {
  @Test
  void exportedPackagesAreDocumented() {
    ApiDocs.assertDocumented("dev.feedstore.server");
  }
}
