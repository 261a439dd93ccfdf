package dev.clearway.lab.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Readings of the JVM the service runs in (this one; the load generator is a JVM of its own): its
 * process CPU time and its heap after a collection.
 */
final class ServiceJvm {
  private ServiceJvm() {}

  /** CPU time of this process so far, in nanoseconds, or -1 where the platform does not say. */
  static long cpuNanos() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return -1;
  }

  /**
   * CPU time of this process's JIT compiler threads so far (Linux: {@code
   * /proc/self/task/<tid>/stat} of the threads named {@code C1 CompilerThre...} / {@code C2
   * CompilerThre...}), in nanoseconds, or -1 where the platform does not say. A compiler thread
   * that ended takes its time with it.
   */
  static long compilerCpuNanos() {
    Path tasks = Path.of("/proc/self/task");
    if (!Files.isDirectory(tasks)) {
      return -1;
    }
    long ticks = 0;
    try (Stream<Path> threads = Files.list(tasks)) {
      for (Path t : (Iterable<Path>) threads::iterator) {
        ticks += compilerTicks(t);
      }
    } catch (IOException | RuntimeException e) {
      return -1;
    }
    // USER_HZ is 100 on Linux.
    return ticks * 10_000_000L;
  }

  /** User and system ticks of one thread if it is a JIT compiler thread, else 0. */
  private static long compilerTicks(Path thread) {
    try {
      String comm = Files.readString(thread.resolve("comm")).strip();
      if (!comm.matches("C[12] CompilerThre.*")) {
        return 0;
      }
      String stat = Files.readString(thread.resolve("stat"));
      // The fields after the command name: state is field 3, utime 14, stime 15.
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /**
   * The heap in use right after a full collection, in bytes: asks for one, then sums each heap
   * pool's usage after its last collection.
   */
  static long heapAfterGc() {
    System.gc();
    long used = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      MemoryUsage after = pool.getType() == MemoryType.HEAP ? pool.getCollectionUsage() : null;
      if (after != null) {
        used += after.getUsed();
      }
    }
    return used;
  }
}
