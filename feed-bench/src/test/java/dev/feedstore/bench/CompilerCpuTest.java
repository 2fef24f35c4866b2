package dev.feedstore.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class CompilerCpuTest {

  @Test
  void compilerCpuIsAPartOfTheProcessCpu() {
    assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "needs Linux's /proc");
    long compiler = CompilerCpu.nanos();
    long process = Heap.processCpuNanos();
    // Starting the test framework compiled code: well over one 10 ms tick of the compiler threads.
    assertTrue(compiler > 0, "compiler threads' CPU must be counted, was " + compiler);
    assertTrue(compiler <= process, "compiler threads' CPU " + compiler + " exceeds the process's " + process);
  }
}
