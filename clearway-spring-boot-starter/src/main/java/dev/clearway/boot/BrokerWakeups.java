package dev.clearway.boot;

import dev.clearway.core.flow.port.WakeupScheduler;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The broker's wake-ups, one publisher ({@code AmqpWakeups}) per kind of row: a step that leaves a
 * row for later publishes its id under the row's kind, due at the row's next retry time, and the
 * broker's consumer hands it to the {@link BrokerWakeupRoute} of that kind. A bean of its own type,
 * so that the engines find it by type without resolving every {@link WakeupScheduler} of the
 * context; it names no class of the optional broker module, so the engines load it without that
 * module.
 */
public final class BrokerWakeups {
  /** Payment flows (pay_flow). */
  public static final String FLOW = "flow";

  /** After-sales refund orders (refund_order). */
  public static final String REFUND = "refund";

  /** Channel recovery tasks (recovery_task). */
  public static final String RECOVERY = "recovery";

  /** Late-charge checks (late_charge_check). */
  public static final String LATE_CHARGE = "latecharge";

  private final Function<String, WakeupScheduler> publisherOfKind;
  private final Map<String, WakeupScheduler> byKind = new ConcurrentHashMap<>();

  /**
   * @param publisherOfKind makes the publisher of one kind (called once per kind)
   */
  public BrokerWakeups(Function<String, WakeupScheduler> publisherOfKind) {
    this.publisherOfKind = publisherOfKind;
  }

  /** The wake-ups of one kind of row (the same instance for the same kind). */
  public WakeupScheduler of(String kind) {
    return byKind.computeIfAbsent(kind, publisherOfKind);
  }
}
