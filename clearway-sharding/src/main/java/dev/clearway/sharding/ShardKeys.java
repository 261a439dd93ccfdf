package dev.clearway.sharding;

import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.store.ShardBits;
import java.nio.charset.StandardCharsets;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.zip.CRC32;

/**
 * Where a payment's rows live: its shard, read from the owner of its goal or from the shard bits
 * that every id of a sharded table carries.
 *
 * <p>A shard is a number in {@code [0, shards)}; shard {@code s} is physical table {@code s %
 * tablesPerDatabase} of database {@code s / tablesPerDatabase}. Each physical table's
 * AUTO_INCREMENT starts at {@code s << 48 | 1}, so every id it hands out carries its shard in bits
 * 48 and up, and every order number derived from a flow id (the trade order number {@code
 * t_<user>_<flow id>}, the refund order number {@code r_t_<user>_<flow id>}, a refund's number
 * {@code a_t_<user>_<flow id>_<seq>}) carries it too.
 */
public final class ShardKeys {

  /** The position of the shard bits in an id. */
  public static final int SHIFT = ShardBits.SHIFT;

  private ShardKeys() {}

  /** The shard of a goal's owner: CRC-32 of merchant and user, modulo {@code shards}. */
  public static int ofOwner(String merchant, long userId, int shards) {
    return hash(merchant + '\u0000' + userId, shards);
  }

  /** The shard of an idempotency key: CRC-32 of merchant and key, modulo {@code shards}. */
  public static int ofIdempotencyKey(String merchant, String key, int shards) {
    return hash(merchant + '\u0000' + key, shards);
  }

  /** The shard an id carries in its bits 48 and up. */
  public static int ofId(long id) {
    return ShardBits.of(id);
  }

  /** The first id a physical table of shard {@code shard} hands out. */
  public static long firstId(int shard) {
    return ((long) shard << SHIFT) | 1L;
  }

  /**
   * The shard carried by a trade or refund order number, from the flow id it was derived from;
   * empty when the number is not one of ours.
   */
  public static OptionalInt ofOrderNumber(String number) {
    if (number == null) {
      return OptionalInt.empty();
    }
    String trade = number.startsWith("r_") ? number.substring(2) : number;
    if (number.startsWith("a_") && number.lastIndexOf('_') > 2) {
      // A refund order's number: a_<trade order number>_<seq>.
      trade = number.substring(2, number.lastIndexOf('_'));
    }
    OptionalLong flowId = OrderNumbers.flowIdOf(trade);
    return flowId.isPresent() ? OptionalInt.of(ofId(flowId.getAsLong())) : OptionalInt.empty();
  }

  private static int hash(String key, int shards) {
    CRC32 crc = new CRC32();
    crc.update(key.getBytes(StandardCharsets.UTF_8));
    return (int) (crc.getValue() % shards);
  }
}
