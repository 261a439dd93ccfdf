package dev.clearway.sim.http;

import dev.clearway.sim.LedgerEntry;
import dev.clearway.sim.SimWallet;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The wallet's own background, in HTTP mode: completes PROCESSING charges and refunds whose time
 * has come ({@link SimWallet#settleAll}) and turns every new ledger entry (a charge or refund the
 * wallet actually executed, whatever its caller was told) into a success event. Each round costs
 * what is new: the settlement visits only the orders due, and the ledger is read from the position
 * the previous round reached.
 */
final class LedgerWatcher implements AutoCloseable {
  private final SimWallet wallet;
  private final CallbackSender sender;
  private final ScheduledExecutorService thread;
  private int seen;

  LedgerWatcher(SimWallet wallet, CallbackSender sender, Duration interval) {
    this.wallet = wallet;
    this.sender = sender;
    this.thread =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "sim-wallet-settle");
              t.setDaemon(true);
              return t;
            });
    long ms = Math.max(1, interval.toMillis());
    thread.scheduleWithFixedDelay(this::poll, ms, ms, TimeUnit.MILLISECONDS);
  }

  private void poll() {
    try {
      wallet.settleAll();
      for (LedgerEntry e : wallet.ledgerSince(seen)) {
        if (e.kind() == LedgerEntry.Kind.CHARGE) {
          sender.emit(WireProtocol.CHARGE_SUCCEEDED, e.tradeOrderNo(), null);
        } else {
          sender.emit(WireProtocol.REFUND_SUCCEEDED, e.tradeOrderNo(), e.orderNo());
        }
        seen++;
      }
    } catch (RuntimeException e) {
      // Keep the background alive; the next round retries from the entry that failed.
    }
  }

  @Override
  public void close() {
    thread.shutdownNow();
    try {
      thread.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
