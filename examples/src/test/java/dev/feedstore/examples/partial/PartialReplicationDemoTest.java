package dev.feedstore.examples.partial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Runs the demo as {@code java -jar examples.jar partial} does, with its own embedded server. */
class PartialReplicationDemoTest {
  @Test
  void theNamespaceFollowerGetsEverySensorsBlockAndTheLiveTailFollowerOnlyNewTemperatures() {
    StringWriter out = new StringWriter();
    CommandLine line = new CommandLine(new PartialReplicationDemo());
    line.setOut(new PrintWriter(out));

    int exit = line.execute();

    assertEquals(0, exit, out.toString());
    List<String> table = Arrays.stream(out.toString().split("\n"))
        .filter(l -> l.matches("\\s+\\d+  .*")).map(String::strip).toList();
    assertEquals(List.of(
        "1  temperature  20.5 C                 received   -",
        "2  humidity  40 %                      received   -",
        "3  hub-log  round 1 measured           -          -",
        "4  temperature  21.5 C                 received   received",
        "5  humidity  42 %                      received   -",
        "6  hub-log  round 2 measured           -          -",
        "7  temperature  22.5 C                 received   received",
        "8  humidity  44 %                      received   -",
        "9  hub-log  round 3 measured           -          -"), table, out.toString());
    assertTrue(out.toString().contains("[alarm    ] received temperature  21.5 C"), out.toString());
  }
}
