package dev.clearway.sim.http;

import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.SimWallet;
import dev.clearway.sim.WalletFault;
import java.util.function.Predicate;

/** Finds order numbers to which the seeded fault plan assigns a wanted fault. */
final class FaultSearch {
  private FaultSearch() {}

  static String first(String prefix, Predicate<String> wanted) {
    for (int i = 0; i < 100_000; i++) {
      String no = prefix + i;
      if (wanted.test(no)) {
        return no;
      }
    }
    throw new IllegalStateException("no order number with the wanted fault");
  }

  static String trade(SimWallet wallet, String prefix, WalletFault fault) {
    return first(prefix, no -> wallet.payFault(no) == fault);
  }

  static String trade(
      SimWallet wallet, FaultPlan plan, String prefix, WalletFault fault, CallbackFault cb) {
    return first(
        prefix,
        no ->
            wallet.payFault(no) == fault
                && CallbackFault.pick(plan, WireProtocol.CHARGE_SUCCEEDED, no) == cb
                && CallbackFault.pick(plan, WireProtocol.CHARGE_FAILED, no) == cb);
  }
}
