package dev.feedstore.cli;

import dev.feedstore.testing.Await;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** Runs feedctl's command lines in this JVM, as {@code main} would, capturing their output. */
final class Cli {
  private Cli() {}

  /** What a finished run printed and returned. */
  record Result(int exit, String out, String err) {
    List<String> lines() {
      return out.isEmpty() ? List.of() : Arrays.asList(out.split("\n"));
    }

    @Override
    public String toString() {
      return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  /** The names of feedctl's commands, as registered, but {@code help}. */
  static List<String> commands() {
    return new picocli.CommandLine(new FeedCtl(java.io.InputStream.nullInputStream())).getSubcommands().keySet()
        .stream().filter(name -> !name.equals("help")).toList();
  }

  static Result run(String... args) {
    return runWithInput("", args);
  }

  static Result runWithInput(String stdin, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = FeedCtl.run(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
        new PrintWriter(out), new PrintWriter(err), args);
    return new Result(exit, out.toString(), err.toString());
  }

  /** Starts a long-running command line ({@code tail}) on a thread of its own. */
  static Background start(String... args) {
    return new Background(args);
  }

  /** A command line running on its own thread; its output can be read while it runs. */
  static final class Background {
    private final StringBuffer out = new StringBuffer();
    private final StringBuffer err = new StringBuffer();
    private final AtomicInteger exit = new AtomicInteger(Integer.MIN_VALUE);
    private final Thread thread;

    private Background(String[] args) {
      thread = new Thread(() -> exit.set(FeedCtl.run(new ByteArrayInputStream(new byte[0]),
          new PrintWriter(new BufferWriter(out), true), new PrintWriter(new BufferWriter(err), true), args)),
          "feedctl-" + args[0]);
      thread.setDaemon(true);
      thread.start();
    }

    String out() {
      return out.toString();
    }

    String err() {
      return err.toString();
    }

    void awaitOut(String text) {
      Await.until("stdout shows '" + text + "':\n" + out, Duration.ofSeconds(30), () -> out.toString().contains(text));
    }

    void awaitErr(String text) {
      Await.until("stderr shows '" + text + "':\n" + err, Duration.ofSeconds(30), () -> err.toString().contains(text));
    }

    /** Waits for the command to end and returns what it printed. */
    Result await() throws InterruptedException {
      thread.join(Duration.ofSeconds(30).toMillis());
      if (thread.isAlive()) {
        thread.interrupt();
        throw new AssertionError("still running after 30 s:\n" + out + "\n" + err);
      }
      return new Result(exit.get(), out(), err());
    }
  }

  /** A writer into a thread-safe buffer. */
  private static final class BufferWriter extends java.io.Writer {
    private final StringBuffer buffer;

    BufferWriter(StringBuffer buffer) {
      this.buffer = buffer;
    }

    @Override
    public void write(char[] chars, int offset, int length) {
      buffer.append(chars, offset, length);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  }
}
