package dev.feedstore.client;

import dev.feedstore.client.internal.GrpcAuthority;
import dev.feedstore.core.sync.Authority;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.testing.AuthorityContract;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real server, over gRPC, answers the sync logic as the contract says: the same contract the
 * in-memory authority of the sync logic's own tests passes.
 */
class ServerAuthorityContractTest extends AuthorityContract {
  @TempDir Path dir;
  private RestartableServer server;
  private GrpcAuthority authority;

  @BeforeEach
  void start() {
    server = RestartableServer.inProcess(dir);
    authority = new GrpcAuthority(server.channel());
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Override
  protected Authority authority() {
    return authority;
  }

  @Override
  protected Object snapshot() {
    return server.snapshot();
  }

  @Override
  protected void restore(Object snapshot) {
    server.restoreFrom((Path) snapshot);
  }

  @Override
  protected void wipe() {
    server.wipe();
  }
}
