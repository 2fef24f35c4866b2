package dev.feedstore.server.internal.live;

/**
 * One stream of one transport (a gRPC call, a Server-Sent Events response) as a {@link LiveStream}
 * drives it: hooked to the stream before any event, saying whether it takes another event now, and
 * ended once. What the events are is the sink's own ({@link LiveSink} for blocks, a live query's
 * sink for changes).
 */
public interface StreamSink {
  /**
   * Hooks the sink to its stream, before any event: {@code onReady} runs when the transport takes
   * events again after {@link #isReady} said false, {@code onGone} when the client went away (a
   * cancelled call, a closed connection). Either may run on any thread and must not block.
   */
  void start(Runnable onReady, Runnable onGone);

  /** True when the transport takes another event now without buffering it; called from the stream's drain only. */
  boolean isReady();

  /**
   * Ends the stream because of {@code reason}, a failure {@code CallRefusal.of} reports (the server
   * shutting down, a subscription gone, a token expired, a failed read). Nothing is sent after it.
   */
  void end(RuntimeException reason);
}
