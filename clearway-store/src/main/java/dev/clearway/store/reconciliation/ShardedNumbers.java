package dev.clearway.store.reconciliation;

import dev.clearway.core.flow.domain.OrderNumbers;

/**
 * Which numbers a statement line may carry name a shard: a trade order number derived from a flow
 * id ({@code t_<user>_<flow id>}), the flow's refund number ({@code r_} and the trade order number)
 * and a refund order's number ({@code a_<trade order number>_<seq>}), as the layout's sharding
 * algorithm reads them. A number of another form (a foreign line's) has no local row on a sharded
 * layout, and the driver refuses a lookup by it: it is answered without one.
 */
final class ShardedNumbers {
  private ShardedNumbers() {}

  static boolean carriesShard(String number) {
    if (number == null) {
      return false;
    }
    String trade = number.startsWith("r_") ? number.substring(2) : number;
    if (number.startsWith("a_") && number.lastIndexOf('_') > 2) {
      trade = number.substring(2, number.lastIndexOf('_'));
    }
    return OrderNumbers.flowIdOf(trade).isPresent();
  }
}
