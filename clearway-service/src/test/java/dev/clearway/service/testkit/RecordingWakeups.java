package dev.clearway.service.testkit;

import dev.clearway.core.flow.port.WakeupScheduler;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Records every wake-up the engine asks for and queues it; nothing is delivered unless a test polls
 * the queue and advances the flow itself (so dropping, duplicating and delaying are the test's).
 */
public final class RecordingWakeups implements WakeupScheduler {
  public record Wakeup(long flowId, Instant at) {}

  private final List<Wakeup> all = new ArrayList<>();
  private final ConcurrentLinkedQueue<Wakeup> pending = new ConcurrentLinkedQueue<>();

  @Override
  public void schedule(long flowId, Instant at) {
    Wakeup w = new Wakeup(flowId, at);
    synchronized (all) {
      all.add(w);
    }
    pending.add(w);
  }

  public List<Wakeup> all() {
    synchronized (all) {
      return List.copyOf(all);
    }
  }

  public List<Instant> forFlow(long flowId) {
    return all().stream().filter(w -> w.flowId() == flowId).map(Wakeup::at).toList();
  }

  /** The oldest undelivered wake-up, or null. */
  public Wakeup poll() {
    return pending.poll();
  }
}
