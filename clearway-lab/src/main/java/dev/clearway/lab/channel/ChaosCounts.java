package dev.clearway.lab.channel;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** The named counters of a channel chaos run, safe to bump from any thread. */
final class ChaosCounts {

  private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();

  void count(String name) {
    add(name, 1);
  }

  void add(String name, long n) {
    counts.computeIfAbsent(name, k -> new AtomicLong()).addAndGet(n);
  }

  /** The counters' current values, sorted by name. */
  Map<String, Long> snapshot() {
    Map<String, Long> snapshot = new TreeMap<>();
    counts.forEach((k, v) -> snapshot.put(k, v.get()));
    return snapshot;
  }
}
