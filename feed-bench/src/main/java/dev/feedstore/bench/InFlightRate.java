package dev.feedstore.bench;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The rate of one writer that keeps up to a number of calls in flight: it sends while fewer are
 * unanswered, waits for the oldest when the window is full, and counts a call once its answer
 * arrived. Warms up for a while, waits for every call of the warm-up, then measures, with the CPU
 * time the server and this process (the client) used while measuring. Used for the store's pipelined
 * appends and for the peer's asynchronous publishes alike. Not thread-safe.
 */
final class InFlightRate<T> {
  private final int inFlight;
  private final Supplier<CompletableFuture<T>> send;
  private final Consumer<CompletableFuture<T>> await;
  private final ArrayDeque<CompletableFuture<T>> unanswered = new ArrayDeque<>();

  /**
   * @param send starts one call
   * @param await waits for a call's answer, throwing if the call failed
   */
  InFlightRate(int inFlight, Supplier<CompletableFuture<T>> send, Consumer<CompletableFuture<T>> await) {
    this.inFlight = inFlight;
    this.send = send;
    this.await = await;
  }

  /**
   * What was measured: calls answered per second, and the CPU time per answered call, in
   * microseconds, of the server's process and of this one.
   */
  record Measured(double rate, double serverCpuMicrosPerCall, double clientCpuMicrosPerCall) {}

  /**
   * Answered calls per second over {@code seconds}, after {@code warmupSeconds} of the same.
   *
   * @param serverCpuNanos the CPU time the server's process used so far
   */
  Measured measure(double warmupSeconds, double seconds, LongSupplier serverCpuNanos) {
    AppendBench.runFor(warmupSeconds, this::step);
    drain();
    long serverCpu = serverCpuNanos.getAsLong();
    long clientCpu = Heap.processCpuNanos();
    long start = System.nanoTime();
    long deadline = start + (long) (seconds * 1e9);
    long answered = 0;
    while (System.nanoTime() < deadline) {
      answered += step();
    }
    answered += drain();
    double elapsed = (System.nanoTime() - start) / 1e9;
    double serverMicros = (serverCpuNanos.getAsLong() - serverCpu) / 1e3 / answered;
    double clientMicros = (Heap.processCpuNanos() - clientCpu) / 1e3 / answered;
    return new Measured(answered / elapsed, serverMicros, clientMicros);
  }

  /** Sends one call, then waits for the oldest if the window is full; returns the calls answered. */
  private int step() {
    unanswered.add(send.get());
    if (unanswered.size() < inFlight) {
      return 0;
    }
    await.accept(unanswered.poll());
    return 1;
  }

  private int drain() {
    int answered = 0;
    while (!unanswered.isEmpty()) {
      await.accept(unanswered.poll());
      answered++;
    }
    return answered;
  }
}
