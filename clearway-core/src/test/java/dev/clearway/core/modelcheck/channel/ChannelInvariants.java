package dev.clearway.core.modelcheck.channel;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.RecoveryTask;
import dev.clearway.core.channel.domain.RecoveryTask.TaskStatus;
import dev.clearway.core.modelcheck.memory.InMemoryChannelStore;
import dev.clearway.core.modelcheck.memory.LeaseRule;
import dev.clearway.core.modelcheck.memory.Write;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules of the attempt and recovery-task machine: a final attempt never moves and is made final
 * once; SUCCEEDED only for a charge the PSP holds; a compensation only for a charge; a task is
 * resolved only with its attempt final; no recovery worker writes without its task's lease; every
 * open attempt has a task (or a person) to finish it.
 */
final class ChannelInvariants {
  private ChannelInvariants() {}

  static List<String> step(
      ChannelModelState before, ChannelModelState after, List<Write> writes, LeaseRule rule) {
    List<String> broken = new ArrayList<>();
    Write.requireLease(writes, rule, broken);
    Attempt old = before.store().attempt();
    Attempt now = after.store().attempt();
    if (old.isFinal() && (now.status() != old.status() || now.version() != old.version())) {
      broken.add("final attempt moved: " + old.status() + " -> " + now.status());
    }
    InMemoryChannelStore.Snapshot s = after.store();
    if (s.finalisations() > 1) {
      broken.add("attempt finalised " + s.finalisations() + " times");
    }
    if (now.status() == AttemptStatus.SUCCEEDED && !after.psp().charged()) {
      broken.add("SUCCEEDED without a charge at the PSP");
    }
    if (s.compensations() > 0 && !after.psp().charged()) {
      broken.add("compensation opened without a charge");
    }
    RecoveryTask task = s.task();
    if (task.status() == TaskStatus.RESOLVED && !now.isFinal()) {
      broken.add("task resolved while the attempt is " + now.status());
    }
    return broken;
  }

  /** An open attempt needs an open task, a person (MANUAL), or a worker at work. */
  static List<String> state(ChannelModelState s) {
    Attempt a = s.store().attempt();
    TaskStatus t = s.store().task().status();
    if (a.isFinal() || s.anyBusy() || t != TaskStatus.RESOLVED) {
      return List.of();
    }
    return List.of("dead end: attempt " + a.status() + " with its task resolved");
  }
}
