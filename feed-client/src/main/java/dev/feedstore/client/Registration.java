package dev.feedstore.client;

/** A listener's registration; closing it stops further updates. */
public interface Registration extends AutoCloseable {
  @Override
  void close();
}
