package dev.feedstore.client;

import dev.feedstore.testing.ApiDocs;
import org.junit.jupiter.api.Test;

/** Every public member of the library's exported packages is documented, and javadoc's doclint passes them. */
class ClientDocsTest {
  @Test
  void exportedPackagesAreDocumented() {
    ApiDocs.assertDocumented("dev.feedstore.client", "dev.feedstore.client.grpc");
  }
}
