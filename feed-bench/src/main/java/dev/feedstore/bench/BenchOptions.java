package dev.feedstore.bench;

import java.nio.file.Path;
import java.util.List;

/**
 * The sizes of one run and where it works.
 *
 * @param dir where database files go (one per case)
 * @param inProcess run the server in this JVM instead of a child JVM (its heap is then not told apart)
 * @param serverJvmArgs options of the server's JVM
 * @param appendBatches the batch sizes of the append cases
 * @param appendWarmupSeconds warm-up per append case
 * @param appendSeconds measured time per append case
 * @param catchupBlocks blocks the fresh replica pulls
 * @param liveBlocks measured blocks of the live-latency case (after {@code liveWarmupBlocks})
 * @param liveWarmupBlocks blocks sent before measuring
 * @param liveIntervalMicros time between two appends of replica A
 * @param fanoutStreams Watch streams of the fan-out case
 * @param fanoutSeconds measured time of the fan-out case (after {@code fanoutWarmupSeconds})
 * @param fanoutWarmupSeconds load before measuring
 * @param fanoutRate blocks per second appended
 * @param fanoutBatch blocks per append
 * @param idleStreams Watch streams of the idle-cost case
 * @param backlogBlocks small blocks a replica pushes after writing them offline (and a hundredth as
 *     many large ones)
 * @param server the server of the run, which every case points at its own database file
 */
record BenchOptions(
    Path dir,
    boolean inProcess,
    List<String> serverJvmArgs,
    List<Integer> appendBatches,
    double appendWarmupSeconds,
    double appendSeconds,
    int catchupBlocks,
    int liveBlocks,
    int liveWarmupBlocks,
    long liveIntervalMicros,
    int fanoutStreams,
    double fanoutSeconds,
    double fanoutWarmupSeconds,
    int fanoutRate,
    int fanoutBatch,
    int idleStreams,
    int backlogBlocks,
    BenchServer server) {

  BenchOptions withServer(BenchServer value) {
    return new BenchOptions(dir, inProcess, serverJvmArgs, appendBatches, appendWarmupSeconds, appendSeconds,
        catchupBlocks, liveBlocks, liveWarmupBlocks, liveIntervalMicros, fanoutStreams, fanoutSeconds,
        fanoutWarmupSeconds, fanoutRate, fanoutBatch, idleStreams, backlogBlocks, value);
  }
}
