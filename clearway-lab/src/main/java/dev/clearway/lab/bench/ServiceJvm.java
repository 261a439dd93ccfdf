package dev.clearway.lab.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;

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
