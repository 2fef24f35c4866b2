package dev.feedstore.client.internal;

import io.grpc.EquivalentAddressGroup;
import io.grpc.NameResolver;
import io.grpc.NameResolverProvider;
import io.grpc.NameResolverRegistry;
import io.grpc.Status;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Several servers of one authority as one gRPC target, {@code feedstore-targets:///HOST:PORT,HOST:PORT}:
 * a name resolver that hands the channel every address (host names looked up at each resolution),
 * so that its load balancer picks one and, when that one fails, another. Registered once with
 * gRPC's default registry by {@link #target}. Thread-safe.
 */
final class TargetList extends NameResolverProvider {
  static final String SCHEME = "feedstore-targets";
  private static final Object REGISTERING = new Object();
  private static boolean registered;

  /** The gRPC target naming every one of {@code targets} ({@code host:port} each). */
  static String target(List<String> targets) {
    if (targets.isEmpty()) {
      throw new IllegalArgumentException("targets must name at least one server (host:port), was empty");
    }
    for (String target : targets) {
      parse(target);
    }
    synchronized (REGISTERING) {
      if (!registered) {
        NameResolverRegistry.getDefaultRegistry().register(new TargetList());
        registered = true;
      }
    }
    return SCHEME + ":///" + String.join(",", targets);
  }

  @Override
  protected boolean isAvailable() {
    return true;
  }

  @Override
  protected int priority() {
    return 5;
  }

  @Override
  public String getDefaultScheme() {
    return SCHEME;
  }

  @Override
  public Collection<Class<? extends SocketAddress>> getProducedSocketAddressTypes() {
    return List.of(InetSocketAddress.class);
  }

  @Override
  public NameResolver newNameResolver(URI uri, NameResolver.Args args) {
    if (!SCHEME.equals(uri.getScheme())) {
      return null;
    }
    String path = uri.getPath() == null ? "" : uri.getPath().replaceFirst("^/", "");
    List<String> targets = List.of(path.split(","));
    return new NameResolver() {
      private Listener2 listener;

      @Override
      public String getServiceAuthority() {
        return targets.get(0);
      }

      @Override
      public void start(Listener2 listener) {
        this.listener = listener;
        resolve();
      }

      @Override
      public void refresh() {
        resolve();
      }

      private void resolve() {
        List<EquivalentAddressGroup> groups = new ArrayList<>();
        for (String target : targets) {
          InetSocketAddress address = parse(target);
          InetSocketAddress resolved = new InetSocketAddress(address.getHostString(), address.getPort());
          if (!resolved.isUnresolved()) {
            groups.add(new EquivalentAddressGroup(resolved));
          }
        }
        if (groups.isEmpty()) {
          listener.onError(Status.UNAVAILABLE.withDescription("none of " + targets + " resolves to an address"));
          return;
        }
        listener.onResult(ResolutionResult.newBuilder().setAddresses(groups).build());
      }

      @Override
      public void shutdown() {}
    };
  }

  /** {@code host:port}, or {@code [v6]:port}, unresolved. */
  private static InetSocketAddress parse(String target) {
    int colon = target.lastIndexOf(':');
    String host = colon < 0 ? "" : target.substring(0, colon).replace("[", "").replace("]", "");
    int port;
    try {
      port = colon < 0 ? -1 : Integer.parseInt(target.substring(colon + 1));
    } catch (NumberFormatException e) {
      port = -1;
    }
    if (host.isEmpty() || port < 1 || port > 65535 || target.contains(",") || target.contains("/")) {
      throw new IllegalArgumentException("a target must be host:port, was '" + target + "'");
    }
    return InetSocketAddress.createUnresolved(host, port);
  }
}
