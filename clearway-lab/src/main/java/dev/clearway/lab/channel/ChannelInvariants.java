package dev.clearway.lab.channel;

import dev.clearway.sim.psp.PspCharge;
import dev.clearway.store.Sql;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * The channel layer's invariants, checked from the database rows and the simulated PSPs' ledgers
 * only (never from the engine's memory). They hold for every channel: a ledger row is keyed by the
 * attempt's provider idempotency key (Stripe Idempotency-Key, WeChat out_trade_no) and names the
 * payment order as its merchant reference (Stripe metadata, WeChat attach).
 *
 * <ul>
 *   <li>{@code attempt_not_final}: an attempt neither SUCCEEDED nor FAILED without a manual case.
 *   <li>{@code failover_without_definite_failure}: a failover whose previous attempt was not proven
 *       failed (definite, failover-eligible).
 *   <li>{@code two_succeeded_attempts}, {@code two_charges_kept}: an order charged twice.
 *   <li>{@code charge_without_attempt}, {@code success_without_charge}: the PSP and the attempts
 *       disagree about a charge.
 *   <li>{@code charge_on_failed_attempt_not_compensated}: money taken on a FAILED attempt, neither
 *       refunded nor in a manual case.
 *   <li>{@code psp_order_open_behind_failed_attempt}: the PSP can still charge (an open WeChat
 *       order, a processing Stripe intent) an attempt recorded as FAILED, or one no attempt knows
 *       of.
 *   <li>{@code succeeded_attempt_on_closed_order}: the flow was told the order is closed unpaid,
 *       yet an attempt of it SUCCEEDED.
 *   <li>{@code attempt_finalised_twice}: an attempt moved to a final status more than once.
 * </ul>
 */
public final class ChannelInvariants {

  private final Sql sql;

  public ChannelInvariants(DataSource dataSource) {
    this.sql = new Sql(dataSource);
  }

  /** One violation, named by a stable code. */
  public record Violation(String code, String subject) {}

  private record AttemptRow(
      long id,
      String trade,
      String status,
      String certainty,
      boolean eligible,
      String origin,
      Long previous) {}

  public List<Violation> check(List<PspCharge> ledger, String orderPrefix) {
    List<Violation> out = new ArrayList<>();
    Map<String, AttemptRow> byKey = new HashMap<>();
    Map<Long, AttemptRow> byId = new HashMap<>();
    for (Object[] r :
        sql.query(
            """
            SELECT id, trade_order_no, status, result_certainty, failover_eligible, origin,
              previous_attempt_id, provider_idempotency_key
            FROM payment_attempt WHERE trade_order_no LIKE ?
            """,
            ps -> ps.setString(1, orderPrefix + "%"),
            rs -> {
              long prev = rs.getLong(7);
              Long previous = rs.wasNull() ? null : prev;
              return new Object[] {
                new AttemptRow(
                    rs.getLong(1),
                    rs.getString(2),
                    rs.getString(3),
                    rs.getString(4),
                    rs.getBoolean(5),
                    rs.getString(6),
                    previous),
                rs.getString(8)
              };
            })) {
      AttemptRow a = (AttemptRow) r[0];
      byKey.put((String) r[1], a);
      byId.put(a.id(), a);
    }
    // A live attempt is explained only by a manual case (its task went MANUAL at max age).
    java.util.Set<Long> manual =
        new java.util.HashSet<>(
            sql.query(
                "SELECT attempt_id FROM recovery_task WHERE status = 'MANUAL'",
                ps -> {},
                rs -> rs.getLong(1)));
    Map<String, Integer> succeededPerOrder = new HashMap<>();
    for (AttemptRow a : byId.values()) {
      if (a.status().equals("SUCCEEDED")) {
        succeededPerOrder.merge(a.trade(), 1, Integer::sum);
      }
      if (!a.status().equals("SUCCEEDED")
          && !a.status().equals("FAILED")
          && !manual.contains(a.id())) {
        out.add(new Violation("attempt_not_final", a.trade() + "#" + a.id()));
      }
      if (a.origin().equals("FAILOVER")) {
        AttemptRow p = byId.get(a.previous());
        boolean proven =
            p != null
                && p.status().equals("FAILED")
                && (p.certainty().equals("DEFINITE_FAILURE")
                    || p.certainty().equals("NO_SIDE_EFFECT"))
                && p.eligible();
        if (!proven) {
          out.add(new Violation("failover_without_definite_failure", a.trade() + "#" + a.id()));
        }
      }
    }
    succeededPerOrder.forEach(
        (trade, n) -> {
          if (n > 1) {
            out.add(new Violation("two_succeeded_attempts", trade));
          }
        });
    Map<Long, String> compensation = new HashMap<>();
    sql.query(
        "SELECT attempt_id, status FROM attempt_compensation WHERE trade_order_no LIKE ?",
        ps -> ps.setString(1, orderPrefix + "%"),
        rs -> compensation.put(rs.getLong(1), rs.getString(2)));
    Map<String, Integer> keptChargesPerOrder = new HashMap<>();
    Map<String, Boolean> chargedKeys = new HashMap<>();
    for (PspCharge c : ledger) {
      if (!c.merchantReference().startsWith(orderPrefix) || !c.charged()) {
        continue;
      }
      chargedKeys.put(c.idempotencyKey(), true);
      AttemptRow a = byKey.get(c.idempotencyKey());
      boolean refunded = c.refunded() >= c.amount();
      if (a == null) {
        out.add(new Violation("charge_without_attempt", c.merchantReference()));
      } else if (!a.status().equals("SUCCEEDED")) {
        String k = compensation.get(a.id());
        if (!refunded && !"MANUAL".equals(k)) {
          out.add(
              new Violation("charge_on_failed_attempt_not_compensated", a.trade() + "#" + a.id()));
        }
      }
      if (!refunded) {
        keptChargesPerOrder.merge(c.merchantReference(), 1, Integer::sum);
      }
    }
    for (PspCharge c : ledger) {
      if (!c.merchantReference().startsWith(orderPrefix) || !"PENDING".equals(c.status())) {
        continue;
      }
      AttemptRow a = byKey.get(c.idempotencyKey());
      if (a == null || a.status().equals("FAILED")) {
        out.add(
            new Violation(
                "psp_order_open_behind_failed_attempt",
                c.merchantReference() + "#" + c.idempotencyKey()));
      }
    }
    java.util.Set<String> closedOrders =
        new java.util.HashSet<>(
            sql.query(
                "SELECT trade_order_no FROM payment_order WHERE trade_order_no LIKE ?"
                    + " AND status = 'CLOSED'",
                ps -> ps.setString(1, orderPrefix + "%"),
                rs -> rs.getString(1)));
    succeededPerOrder.keySet().stream()
        .filter(closedOrders::contains)
        .sorted()
        .forEach(trade -> out.add(new Violation("succeeded_attempt_on_closed_order", trade)));
    keptChargesPerOrder.forEach(
        (trade, n) -> {
          if (n > 1) {
            out.add(new Violation("two_charges_kept", trade));
          }
        });
    for (Map.Entry<String, AttemptRow> e : byKey.entrySet()) {
      if (e.getValue().status().equals("SUCCEEDED") && !chargedKeys.containsKey(e.getKey())) {
        out.add(new Violation("success_without_charge", e.getValue().trade()));
      }
    }
    long doubleFinal =
        sql.query(
                """
                SELECT count(*) FROM (SELECT attempt_id FROM payment_attempt_history
                  WHERE to_status IN ('SUCCEEDED', 'FAILED') GROUP BY attempt_id
                  HAVING count(*) > 1) x
                """,
                ps -> {},
                rs -> rs.getLong(1))
            .get(0);
    if (doubleFinal > 0) {
      out.add(new Violation("attempt_finalised_twice", doubleFinal + " attempts"));
    }
    return out;
  }
}
