package dev.feedstore.examples.notes;

import java.io.PrintWriter;
import java.util.function.Consumer;

/**
 * Prints {@code USER: N note(s), LABEL} whenever the number of notes or the sync label the window
 * shows changes. Thread-safe (synchronized), so lines never interleave.
 */
final class ConsoleLog implements Consumer<NotesView> {
  private final String user;
  private final PrintWriter out;
  private String last = "";

  ConsoleLog(String user, PrintWriter out) {
    this.user = user;
    this.out = out;
  }

  @Override
  public synchronized void accept(NotesView view) {
    String line = user + ": " + view.notes().size() + " note(s), " + view.syncLabel();
    if (!line.equals(last)) {
      last = line;
      out.println(line);
      out.flush();
    }
  }
}
