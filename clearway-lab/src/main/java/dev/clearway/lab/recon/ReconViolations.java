package dev.clearway.lab.recon;

import dev.clearway.lab.channel.ChannelInvariants;
import dev.clearway.lab.channel.ChannelInvariants.Violation;
import dev.clearway.sim.psp.PspCharge;
import dev.clearway.store.Sql;
import dev.clearway.store.SqlDialect;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;

/**
 * The checks after the repairs, from the database rows and the simulated PSPs' books only:
 *
 * <ul>
 *   <li>the channel invariants ({@link ChannelInvariants}): no order charged twice, every charge on
 *       an attempt that did not succeed refunded (or with a person), every success charged;
 *   <li>{@code flow_not_settled}: a flow neither terminal nor in manual review nor in a ticket;
 *   <li>{@code refund_not_settled}: a refund order still in flight with no ticket about it;
 *   <li>{@code refund_differs_from_psp}: the PSP refunded and the refund order is not SUCCESS, or
 *       the other way round, with no ticket about it;
 *   <li>{@code reversal_not_mismatch}: a charge reversed after settlement whose settlement status
 *       is not MISMATCH;
 *   <li>{@code corrupt_statement_not_refused}: fewer imports refused than corrupted files served.
 * </ul>
 */
final class ReconViolations {

  private final DataSource dataSource;
  private final Sql sql;
  private final String flowRows;

  ReconViolations(DataSource dataSource, SqlDialect dialect) {
    this.dataSource = dataSource;
    this.sql = new Sql(dataSource);
    this.flowRows = ReconWaits.flowRows(dialect);
  }

  List<Violation> check(
      List<PspCharge> ledger,
      Map<String, String> pspRefunds,
      Set<String> ticketed,
      Set<String> reversed,
      Map<String, String> settlement,
      int refused,
      int corrupted) {
    List<Violation> out = new ArrayList<>(new ChannelInvariants(dataSource).check(ledger, "t_"));
    for (String trade : openFlows()) {
      if (!ticketed.contains(trade)) {
        out.add(new Violation("flow_not_settled", trade));
      }
    }
    Map<String, String> local = refundOrders();
    local.forEach(
        (no, status) -> {
          boolean inFlight = !Set.of("SUCCESS", "FAIL", "CLOSED").contains(status);
          if (inFlight && !ticketed.contains(no)) {
            out.add(new Violation("refund_not_settled", no + " " + status));
          }
        });
    pspRefunds.forEach(
        (no, status) -> {
          if (!no.startsWith("a_") || ticketed.contains(no)) {
            return;
          }
          boolean pspDone = "SUCCESS".equals(status);
          boolean localDone = "SUCCESS".equals(local.get(no));
          if (pspDone != localDone) {
            out.add(
                new Violation(
                    "refund_differs_from_psp", no + " psp " + status + ", local " + local.get(no)));
          }
        });
    for (String trade : reversed) {
      if (!"MISMATCH".equals(settlement.get(trade))) {
        out.add(new Violation("reversal_not_mismatch", trade + " " + settlement.get(trade)));
      }
    }
    if (refused < corrupted) {
      out.add(
          new Violation(
              "corrupt_statement_not_refused",
              refused + " refused of " + corrupted + " corrupted"));
    }
    return out;
  }

  private List<String> openFlows() {
    return sql.query(
        "SELECT trade_order_no FROM "
            + flowRows
            + " WHERE status IN"
            + " ('WAIT_PAY', 'PAYING', 'PAYED', 'REFUNDING') AND review_state = 'NONE'",
        ps -> {},
        rs -> rs.getString(1));
  }

  private Map<String, String> refundOrders() {
    Map<String, String> out = new HashMap<>();
    sql.query(
        "SELECT refund_no, status FROM refund_order",
        ps -> {},
        rs -> out.put(rs.getString(1), rs.getString(2)));
    return out;
  }

  /** The trade and refund numbers named by a difference in a ticket (waiting for a person). */
  static Set<String> ticketed(List<ReconTally.FoundDifference> differences) {
    Set<String> out = new HashSet<>();
    for (ReconTally.FoundDifference d : differences) {
      if ("NEEDS_PERSON".equals(d.state())) {
        if (d.tradeOrderNo() != null) {
          out.add(d.tradeOrderNo());
        }
        if (d.refundOrderNo() != null) {
          out.add(d.refundOrderNo());
        }
      }
    }
    return out;
  }
}
