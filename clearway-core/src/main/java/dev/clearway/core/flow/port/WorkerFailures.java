package dev.clearway.core.flow.port;

import java.lang.System.Logger.Level;

/**
 * Where a background loop reports a failure it survives: a worker whose advance died, a scanner or
 * recovery round that threw, a compensation whose PSP call or recording failed, a wake-up that
 * could not be handed over. The loop goes on; the row the failure left behind is found again (its
 * lease expires, its due time passes). An implementation logs the failure with its cause and counts
 * it by {@code loop}; nothing a loop catches is dropped without passing through here.
 */
@FunctionalInterface
public interface WorkerFailures {

  /**
   * @param loop the loop that failed, a small fixed set ({@code flow-worker}, {@code flow-scanner},
   *     {@code outbox-relay}, {@code channel-compensation-item}, ...)
   * @param cause what it failed with
   */
  void failed(String loop, Throwable cause);

  /**
   * Without a logging framework: {@link System.Logger} (java.util.logging unless the platform
   * routes it elsewhere) at WARNING, with the cause.
   */
  static WorkerFailures systemLogger() {
    System.Logger log = System.getLogger("dev.clearway.worker");
    return (loop, cause) ->
        log.log(Level.WARNING, "background loop " + loop + " failed and goes on", cause);
  }
}
