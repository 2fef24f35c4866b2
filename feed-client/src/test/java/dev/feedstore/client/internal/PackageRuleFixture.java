package dev.feedstore.client.internal;

import dev.feedstore.client.grpc.AuthorityChannel;

/**
 * Not a test: classes that break the library's package rules on purpose, so that {@code
 * ClientPackagesTest} shows each rule failing. It lives in {@code internal}, imports the gRPC
 * package above it, and it and {@link PackageRuleFixtureEcho} import each other.
 */
final class PackageRuleFixture {
  private PackageRuleFixture() {}

  static String breaks(AuthorityChannel channel, PackageRuleFixtureEcho echo) {
    return channel + " " + echo;
  }
}

/** The other half of {@link PackageRuleFixture}'s loop. */
final class PackageRuleFixtureEcho {
  private PackageRuleFixtureEcho() {}

  static String back() {
    return PackageRuleFixture.breaks(null, null);
  }
}
