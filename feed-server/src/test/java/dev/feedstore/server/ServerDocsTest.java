package dev.feedstore.server;

import dev.feedstore.testing.ApiDocs;
import org.junit.jupiter.api.Test;

/**
 * Every public member of the server's API packages is documented, and javadoc's doclint passes them.
 * The comments of the settings' constants are made from their entries ({@code SettingCommentsTest}).
 */
class ServerDocsTest {
  @Test
  void exportedPackagesAreDocumented() {
    ApiDocs.assertDocumented("dev.feedstore.server", "dev.feedstore.server.settings");
  }
}
