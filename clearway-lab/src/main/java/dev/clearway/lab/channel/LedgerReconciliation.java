package dev.clearway.lab.channel;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.EvidenceSource;
import dev.clearway.core.channel.engine.AttemptRecorder;
import dev.clearway.core.channel.engine.ChannelContext;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.sim.psp.PspCharge;
import dev.clearway.store.Sql;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * The last line of defence: the PSPs' settlement reports (here the simulated ledgers) matched
 * against the attempts. A charge on an attempt recorded FAILED that no compensation covers yet is
 * recorded as RECONCILIATION evidence through the engine's one recording path, which opens the
 * compensation (the charge is refunded; the attempt stays FAILED).
 *
 * <p>In the chaos run every such finding is a charge that the response, webhook and recovery paths
 * missed, and is counted as such in the report.
 */
final class LedgerReconciliation {

  private final ChannelContext ctx;
  private final AttemptRecorder recorder;
  private final Sql sql;

  LedgerReconciliation(ChannelContext ctx, DataSource dataSource) {
    this.ctx = ctx;
    this.recorder = new AttemptRecorder(ctx);
    this.sql = new Sql(dataSource);
  }

  /**
   * Matches the charged rows of {@code report} for orders starting with {@code orderPrefix}; {@code
   * found} hears of each FAILED attempt whose charge was first found here. Returns how many were
   * found.
   */
  int reconcile(List<PspCharge> report, String orderPrefix, Consumer<Attempt> found) {
    Set<Long> compensated =
        new HashSet<>(
            sql.query(
                "SELECT attempt_id FROM attempt_compensation WHERE trade_order_no LIKE ?",
                ps -> ps.setString(1, orderPrefix + "%"),
                rs -> rs.getLong(1)));
    int n = 0;
    for (PspCharge charge : report) {
      if (!charge.charged() || !charge.merchantReference().startsWith(orderPrefix)) {
        continue;
      }
      Optional<Attempt> attempt = ctx.stores().attempts().attemptByKey(charge.idempotencyKey());
      if (attempt.isEmpty()
          || attempt.get().status() != AttemptStatus.FAILED
          || compensated.contains(attempt.get().id())) {
        continue;
      }
      String version = ctx.policies().versionFor(attempt.get().tradeOrderNo());
      PspOutcome settled =
          PspOutcome.succeeded(charge.providerPaymentId()).withProviderStatus("SETTLED");
      recorder.record(
          // An observer: it holds no task lease, the attempt is final already.
          AttemptRecorder.Observation.observed(
              attempt.get(),
              settled,
              EvidenceSource.RECONCILIATION,
              "SETTLEMENT_REPORT",
              null,
              version));
      found.accept(attempt.get());
      n++;
    }
    return n;
  }
}
