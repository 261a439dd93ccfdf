package dev.clearway.lab.channel;

import dev.clearway.sim.psp.PspCharge;
import dev.clearway.store.Sql;
import java.io.PrintStream;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.sql.DataSource;

/**
 * Explains the violations of a chaos run: for each order named by one, prints its attempts, their
 * evidence and the order's rows in the PSP ledgers.
 */
final class ChaosExplain {

  private final Sql sql;
  private final PrintStream err;

  ChaosExplain(DataSource dataSource, PrintStream err) {
    this.sql = new Sql(dataSource);
    this.err = err;
  }

  void explain(List<ChannelInvariants.Violation> violations, List<PspCharge> ledger) {
    for (String trade : trades(violations)) {
      err.println("channels chaos: order " + trade);
      attempts(trade);
      ledger.stream()
          .filter(c -> c.merchantReference().equals(trade))
          .forEach(c -> err.println("  ledger " + c));
    }
  }

  /** The orders named by the violations (a subject's part before '#'), sorted. */
  private static Set<String> trades(List<ChannelInvariants.Violation> violations) {
    Set<String> trades = new TreeSet<>();
    for (ChannelInvariants.Violation v : violations) {
      int hash = v.subject().indexOf('#');
      trades.add(hash < 0 ? v.subject() : v.subject().substring(0, hash));
    }
    return trades;
  }

  /** One line per attempt of the order and piece of its evidence. */
  private void attempts(String trade) {
    sql.query(
        "SELECT a.id, a.channel_account_id, a.origin, a.status, a.result_certainty,"
            + " a.error_code, a.provider_idempotency_key, e.source, e.operation, e.certainty,"
            + " e.provider_status, e.error_code, e.observed_at FROM payment_attempt a"
            + " LEFT JOIN provider_evidence e ON e.attempt_id = a.id"
            + " WHERE a.trade_order_no = ? ORDER BY a.id, e.id",
        ps -> ps.setString(1, trade),
        rs -> {
          StringBuilder line = new StringBuilder("  ");
          for (int col = 1; col <= 13; col++) {
            line.append(rs.getString(col)).append(col == 7 ? " | " : " ");
          }
          err.println(line);
          return 0;
        });
  }
}
