package dev.feedstore.examples.notes;

import dev.feedstore.core.ActorId;
import dev.feedstore.core.SpaceId;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.swing.SwingUtilities;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The offline-first notes app: {@code java -jar examples/target/examples.jar notes --name alice}.
 * Start a second one with another {@code --name} against the same server and each shows the
 * other's notes as they are written; stop the server and both keep working (their notes wait as
 * "not sent yet"); start it again and what was written meanwhile is exchanged.
 *
 * <p>Besides the window it prints a line whenever the window shows another number of notes or
 * another sync status ({@code alice: 2 note(s), synced}), which scripts (and curious people) can
 * follow.
 */
@Command(name = "notes", mixinStandardHelpOptions = true, sortOptions = false,
    description = "An offline-first notes app: every note is a block of the user's feed in namespace 'notes'.")
public final class NotesApp implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--name", required = true, description = "Who you are: the author id of your notes.")
  String name;

  @Option(names = "--db", paramLabel = "FILE", description = "Your replica file (default: notes-NAME.db).")
  Path db;

  @Option(names = "--server", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:7070",
      description = "The feed server (default: ${DEFAULT-VALUE}).")
  String server;

  @Option(names = "--space", defaultValue = "notes", description = "The space (default: ${DEFAULT-VALUE}).")
  String space;

  @Option(names = "--add", paramLabel = "TEXT", description = "Write this note at start (repeatable; for demos).")
  List<String> initialNotes = new ArrayList<>();

  @Option(names = "--at", paramLabel = "X,Y", defaultValue = "100,100", split = ",",
      description = "Where the window opens (default: ${DEFAULT-VALUE}).")
  int[] at;

  @Override
  public Integer call() throws Exception {
    if (at.length != 2) {
      throw new ParameterException(spec.commandLine(),
          "--at must be X,Y (two numbers), was " + at.length + " number(s)");
    }
    ActorId user = ActorId.of(name);
    Path file = db != null ? db : Path.of("notes-" + name + ".db");
    ManagedChannel channel = Grpc.newChannelBuilder(server, InsecureChannelCredentials.create()).build();
    CountDownLatch closed = new CountDownLatch(1);
    try (NotesModel model = NotesModel.open(file, user, SpaceId.of(space), Optional.of(channel))) {
      initialNotes.forEach(model::add);
      ConsoleLog log = new ConsoleLog(model.user().value(), spec.commandLine().getOut());
      SwingUtilities.invokeAndWait(() -> new NotesWindow(model, server, log, closed::countDown).show(at[0], at[1]));
      closed.await();
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    return 0;
  }
}
