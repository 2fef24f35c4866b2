package dev.feedstore.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class CpuLimitTest {

  @Test
  void oneCpuRunsTheServerUnderTasksetWithTheJvmToldItHasOne() {
    CpuLimit one = CpuLimit.of(1, false);

    assertEquals(List.of("/usr/bin/taskset", "-c", "0-0"), one.launcher());
    assertEquals(List.of("-XX:ActiveProcessorCount=1", "-Xmx1g"), one.jvmArgs(List.of("-Xmx1g")));
  }

  @Test
  void withoutTheOptionTheServerRunsAsBefore() {
    CpuLimit none = CpuLimit.of(null, false);

    assertEquals(List.of(), none.launcher());
    assertEquals(List.of("-Xmx1g"), none.jvmArgs(List.of("-Xmx1g")));
  }

  @Test
  void aLimitOutsideTheMachinesProcessorsOrInProcessIsRefusedByName() {
    int available = Runtime.getRuntime().availableProcessors();
    assertEquals("--server-cpus must be between 1 and the " + available + " processors of this machine, was 0",
        assertThrows(IllegalArgumentException.class, () -> CpuLimit.of(0, false)).getMessage());
    assertEquals("--server-cpus must be between 1 and the " + available + " processors of this machine, was "
        + (available + 1), assertThrows(IllegalArgumentException.class, () -> CpuLimit.of(available + 1, false))
        .getMessage());
    assertEquals("--server-cpus limits the server's own JVM: it cannot be used with --in-process",
        assertThrows(IllegalArgumentException.class, () -> CpuLimit.of(1, true)).getMessage());
  }
}
