package dev.clearway.store;

import dev.clearway.core.flow.domain.OrderNumbers;
import java.util.OptionalLong;

/**
 * The shard an id carries in its bits 48 and up. On a sharded database every physical table's
 * AUTO_INCREMENT starts at its shard's first id, so a flow id names its shard, and so does every
 * order number derived from it. Unsharded, those bits are 0. An id drawn from a sequence that is
 * not sharded (a payment attempt's) takes the bits of the flow it belongs to, so that it routes to
 * its flow's shard.
 */
public final class ShardBits {

  /** The position of the shard bits in an id. */
  public static final int SHIFT = 48;

  private static final long LOW = (1L << SHIFT) - 1;

  private ShardBits() {}

  /** The shard {@code id} carries. */
  public static int of(long id) {
    return (int) (id >>> SHIFT);
  }

  /**
   * {@code drawn} with the shard bits of the flow behind {@code tradeOrderNo} (none when the number
   * is not derived from a flow id).
   */
  public static long inherit(String tradeOrderNo, long drawn) {
    if ((drawn & ~LOW) != 0) {
      throw new IllegalStateException("id " + drawn + " overflows into the shard bits");
    }
    OptionalLong flow = OrderNumbers.flowIdOf(tradeOrderNo);
    return flow.isPresent() ? (flow.getAsLong() & ~LOW) | drawn : drawn;
  }
}
