package dev.feedstore.postgres;

import dev.feedstore.testing.ApiDocs;
import org.junit.jupiter.api.Test;

/** Every public member of the module's exported package is documented, and javadoc's doclint passes it. */
class PostgresDocsTest {
  @Test
  void exportedPackageIsDocumented() {
    ApiDocs.assertDocumented("dev.feedstore.postgres");
  }
}
