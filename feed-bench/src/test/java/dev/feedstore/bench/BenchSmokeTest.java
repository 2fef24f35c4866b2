package dev.feedstore.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The benchmark program runs every part end to end at toy sizes and prints every row. */
class BenchSmokeTest {
  @TempDir Path dir;

  @Test
  void everyPartRunsAtToySizesAndPrintsItsRows() throws Exception {
    Path out = dir.resolve("table.txt");
    int status = new CommandLine(new BenchMain()).setCaseInsensitiveEnumValuesAllowed(true).execute(
        "--in-process", "--dir", dir.resolve("work").toString(), "--out", out.toString(),
        "--append-batches", "1,10", "--append-warmup-s", "0.1", "--append-s", "0.2",
        "--catchup-blocks", "1500", "--live-blocks", "40", "--live-warmup-blocks", "10",
        "--fanout-streams", "4", "--fanout-s", "0.3", "--fanout-warmup-s", "0.1", "--idle-streams", "4",
        "--checksum-blocks", "1000", "--chain-blocks", "1000", "--backlog-blocks", "300",
        "--fairness-queries", "20", "--stream-messages", "500", "--compaction-blocks", "3000",
        "--livequery-documents", "2000", "--livequery-queries", "5", "--livequery-blocks", "100",
        "--livequery-pulled", "100", "--compression-blocks", "500", "--livequery-server-subscribers", "4",
        "--livequery-server-queries", "3", "--livequery-server-documents", "200");
    assertEquals(0, status);
    List<String> lines = Files.readAllLines(out);
    String table = String.join("\n", lines);
    for (String metric : List.of("append.one-feed.batch1 ", "append.interleaved.batch10 ", "append.repushed.batch10 ",
        "catchup.rate ", "live.p99 ", "backlog.small.rate ", "backlog.large.mib_per_s ", "fanout.p99 ", "fanout.undelivered ",
        "fanout.server_cpu_per_delivery ", "sse.fanout.server_cpu_per_delivery ",
        "idle.heap_per_stream ", "sse.fanout.p99 ", "sse.fanout.undelivered ", "sse.idle.heap_per_stream ",
        "checksum.crc32c ", "chain.link_256b ", "chain.link_1mib ", "fairness.query.p99.flooded ",
        "append.concurrent.c100.batch1.one-space ", "streams.append.http ", "streams.append.http_producer ",
        "streams.sse_catchup.rate ", "compaction.rate ", "compaction.append.p99 ", "compaction.watch.p99 ",
        "sse.fanout.bench_cpu_per_delivery ", "streams.fanout.undelivered ",
        "livequery_server.p99 ", "livequery_server.server_cpu_per_delivery ", "livequery_server.heap_per_subscriber ",
        "livequery_server.watch.server_cpu_per_delivery ")) {
      assertTrue(table.contains("\n" + metric), metric + " is in the table:\n" + table);
    }
    // The event-stream readers find every block the server sent over every transport, and no stream ended.
    for (String metric : List.of("fanout.undelivered", "sse.fanout.undelivered", "sse.fanout.streams_ended",
        "streams.fanout.undelivered", "streams.fanout.streams_ended", "livequery_server.undelivered",
        "livequery_server.watch.undelivered")) {
      assertEquals("0", value(lines, metric), metric + ":\n" + table);
    }
  }

  @Test
  void onlyTakesThePartsAsTheHelpNamesThem() {
    BenchMain main = new BenchMain();
    new CommandLine(main).setCaseInsensitiveEnumValuesAllowed(true).parseArgs("--only", "livequery-server,fanout");
    assertEquals(EnumSet.of(BenchMain.Part.livequery_server, BenchMain.Part.fanout), main.only);
  }

  /** The value column of the row {@code metric}. */
  private static String value(List<String> lines, String metric) {
    return lines.stream().filter(l -> l.startsWith(metric + " ")).findFirst()
        .orElseThrow(() -> new AssertionError(metric + " is not in the table")).split("\\|")[1].strip();
  }

  @Test
  void thePostgresRowsRunAtToySizes() throws Exception {
    Path out = dir.resolve("postgres.txt");
    int status = new CommandLine(new BenchMain()).setCaseInsensitiveEnumValuesAllowed(true).execute(
        "--store", "postgres", "--dir", dir.resolve("work").toString(), "--out", out.toString(),
        "--append-batches", "1,10", "--append-warmup-s", "0.1", "--append-s", "0.2", "--warmup-s", "0.5",
        "--pg-watch-blocks", "20");
    assertEquals(0, status);
    String table = String.join("\n", Files.readAllLines(out));
    for (String metric : List.of("pg.append.one-feed.batch1 ", "pg.append.interleaved.batch10 ", "pg.procs3.one_space ",
        "pg.procs3.three_spaces ", "pg.watch.cross_process.p99 ")) {
      assertTrue(table.contains("\n" + metric), metric + " is in the table:\n" + table);
    }
    assertEquals("0", value(Files.readAllLines(out), "pg.watch.cross_process.undelivered"),
        "every block was delivered:\n" + table);
  }
}
