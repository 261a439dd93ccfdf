package dev.clearway.lab.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.List;

/**
 * The JVM's peak heap use over a stretch of work, from the heap memory pools' own peak counters
 * (reset at the start): the sum of each pool's peak, an upper bound of the heap used at any one
 * moment, counting garbage not yet collected.
 */
final class HeapPeak {
  private final List<MemoryPoolMXBean> heapPools;

  private HeapPeak(List<MemoryPoolMXBean> heapPools) {
    this.heapPools = heapPools;
  }

  /** Resets every heap pool's peak and starts measuring. */
  static HeapPeak start() {
    List<MemoryPoolMXBean> pools =
        ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP && p.isValid())
            .toList();
    pools.forEach(MemoryPoolMXBean::resetPeakUsage);
    return new HeapPeak(pools);
  }

  /** The sum of the heap pools' peaks since {@link #start()}, in bytes. */
  long peakBytes() {
    return heapPools.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum();
  }

  /** The heap's limit ({@code -Xmx}), in bytes. */
  static long maxBytes() {
    return Runtime.getRuntime().maxMemory();
  }
}
