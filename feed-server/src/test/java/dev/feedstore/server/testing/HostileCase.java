package dev.feedstore.server.testing;

import io.grpc.Channel;
import io.grpc.Status;
import java.util.List;

/**
 * One hostile request and the answer the wire contract promises: a status code and fragments that
 * its description contains (the field or limit, and the rule).
 *
 * @param name the test's name: the RPC, the field and the value
 * @param call sends the request; it must throw the call's {@link io.grpc.StatusRuntimeException}
 * @param code the status it must end with
 * @param fragments text the status description must contain, in any order
 */
public record HostileCase(String name, Call call, Status.Code code, List<String> fragments) {
  /** Sends one request over {@code channel}. */
  @FunctionalInterface
  public interface Call {
    void send(Channel channel);
  }

  public static HostileCase of(String name, Call call, Status.Code code, String... fragments) {
    return new HostileCase(name, call, code, List.of(fragments));
  }
}
