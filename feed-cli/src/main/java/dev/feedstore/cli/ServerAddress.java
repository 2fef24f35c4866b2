package dev.feedstore.cli;

import dev.feedstore.core.InvalidValueException;

/**
 * Where the position authority listens: {@code host:port}, the host a name, an IPv4 address or an
 * IPv6 address in brackets ({@code [::1]:7070}).
 */
record ServerAddress(String host, int port) {
  static final String RULE = "must be HOST:PORT with a port of 1-65535 (IPv6 in brackets: [::1]:7070)";

  ServerAddress {
    if (host == null || host.isEmpty() || port < 1 || port > 65535) {
      throw new InvalidValueException("server", RULE, host + ":" + port);
    }
  }

  static ServerAddress parse(String text) {
    int colon = text.lastIndexOf(':');
    if (colon <= 0 || colon == text.length() - 1) {
      throw new InvalidValueException("server", RULE, text);
    }
    String host = text.substring(0, colon);
    if (host.startsWith("[") != host.endsWith("]") || (host.contains(":") && !host.startsWith("["))) {
      throw new InvalidValueException("server", RULE, text);
    }
    try {
      return new ServerAddress(host, Integer.parseInt(text.substring(colon + 1)));
    } catch (NumberFormatException e) {
      throw new InvalidValueException("server", RULE, text);
    }
  }

  /** The gRPC target of this address. */
  String target() {
    return host + ":" + port;
  }

  @Override
  public String toString() {
    return target();
  }
}
