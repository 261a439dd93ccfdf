package dev.clearway.lab.channel;

import dev.clearway.sim.psp.PspCharge;
import dev.clearway.store.Sql;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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

  /** The attempts of the run, by provider idempotency key and by id, and those in manual cases. */
  private record Attempts(
      Map<String, AttemptRow> byKey, Map<Long, AttemptRow> byId, Set<Long> manual) {}

  public List<Violation> check(List<PspCharge> ledger, String orderPrefix) {
    List<Violation> out = new ArrayList<>();
    Attempts attempts = attempts(orderPrefix);
    Map<String, Integer> succeededPerOrder = checkAttempts(attempts, out);
    moreThanOne(succeededPerOrder, "two_succeeded_attempts", out);
    Map<String, Integer> keptChargesPerOrder = new HashMap<>();
    Set<String> chargedKeys = checkCharges(ledger, orderPrefix, attempts, keptChargesPerOrder, out);
    checkOpenPspOrders(ledger, orderPrefix, attempts, out);
    checkClosedOrders(succeededPerOrder, orderPrefix, out);
    moreThanOne(keptChargesPerOrder, "two_charges_kept", out);
    for (Map.Entry<String, AttemptRow> e : attempts.byKey().entrySet()) {
      if (e.getValue().status().equals("SUCCEEDED") && !chargedKeys.contains(e.getKey())) {
        out.add(new Violation("success_without_charge", e.getValue().trade()));
      }
    }
    checkFinalisedOnce(out);
    return out;
  }

  private Attempts attempts(String orderPrefix) {
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
    Set<Long> manual =
        new HashSet<>(
            sql.query(
                "SELECT attempt_id FROM recovery_task WHERE status = 'MANUAL'",
                ps -> {},
                rs -> rs.getLong(1)));
    return new Attempts(byKey, byId, manual);
  }

  /**
   * Every attempt final or in a manual case, every failover behind a proven failure; returns the
   * number of SUCCEEDED attempts per order.
   */
  private static Map<String, Integer> checkAttempts(Attempts attempts, List<Violation> out) {
    Map<String, Integer> succeededPerOrder = new HashMap<>();
    for (AttemptRow a : attempts.byId().values()) {
      if (a.status().equals("SUCCEEDED")) {
        succeededPerOrder.merge(a.trade(), 1, Integer::sum);
      }
      if (!a.status().equals("SUCCEEDED")
          && !a.status().equals("FAILED")
          && !attempts.manual().contains(a.id())) {
        out.add(new Violation("attempt_not_final", a.trade() + "#" + a.id()));
      }
      if (a.origin().equals("FAILOVER") && !provenFailure(attempts.byId().get(a.previous()))) {
        out.add(new Violation("failover_without_definite_failure", a.trade() + "#" + a.id()));
      }
    }
    return succeededPerOrder;
  }

  private static boolean provenFailure(AttemptRow p) {
    return p != null
        && p.status().equals("FAILED")
        && (p.certainty().equals("DEFINITE_FAILURE") || p.certainty().equals("NO_SIDE_EFFECT"))
        && p.eligible();
  }

  private static void moreThanOne(Map<String, Integer> perOrder, String code, List<Violation> out) {
    perOrder.forEach(
        (trade, n) -> {
          if (n > 1) {
            out.add(new Violation(code, trade));
          }
        });
  }

  /**
   * Every charge of the PSP belongs to an attempt, and one on an attempt that did not succeed is
   * refunded or in a manual case; counts the charges kept per order into {@code keptPerOrder} and
   * returns the idempotency keys the PSP charged.
   */
  private Set<String> checkCharges(
      List<PspCharge> ledger,
      String orderPrefix,
      Attempts attempts,
      Map<String, Integer> keptPerOrder,
      List<Violation> out) {
    Map<Long, String> compensation = new HashMap<>();
    sql.query(
        "SELECT attempt_id, status FROM attempt_compensation WHERE trade_order_no LIKE ?",
        ps -> ps.setString(1, orderPrefix + "%"),
        rs -> compensation.put(rs.getLong(1), rs.getString(2)));
    Set<String> chargedKeys = new HashSet<>();
    for (PspCharge c : ledger) {
      if (!c.merchantReference().startsWith(orderPrefix) || !c.charged()) {
        continue;
      }
      chargedKeys.add(c.idempotencyKey());
      AttemptRow a = attempts.byKey().get(c.idempotencyKey());
      boolean refunded = c.refunded() >= c.amount();
      if (a == null) {
        out.add(new Violation("charge_without_attempt", c.merchantReference()));
      } else if (!a.status().equals("SUCCEEDED")
          && !refunded
          && !"MANUAL".equals(compensation.get(a.id()))) {
        out.add(
            new Violation("charge_on_failed_attempt_not_compensated", a.trade() + "#" + a.id()));
      }
      if (!refunded) {
        keptPerOrder.merge(c.merchantReference(), 1, Integer::sum);
      }
    }
    return chargedKeys;
  }

  /** No PSP order that can still be charged behind a FAILED attempt or behind none. */
  private static void checkOpenPspOrders(
      List<PspCharge> ledger, String orderPrefix, Attempts attempts, List<Violation> out) {
    for (PspCharge c : ledger) {
      if (!c.merchantReference().startsWith(orderPrefix) || !"PENDING".equals(c.status())) {
        continue;
      }
      AttemptRow a = attempts.byKey().get(c.idempotencyKey());
      if (a == null || a.status().equals("FAILED")) {
        out.add(
            new Violation(
                "psp_order_open_behind_failed_attempt",
                c.merchantReference() + "#" + c.idempotencyKey()));
      }
    }
  }

  /** No SUCCEEDED attempt on an order the flow was told is closed unpaid. */
  private void checkClosedOrders(
      Map<String, Integer> succeededPerOrder, String orderPrefix, List<Violation> out) {
    Set<String> closedOrders =
        new HashSet<>(
            sql.query(
                "SELECT trade_order_no FROM payment_order WHERE trade_order_no LIKE ?"
                    + " AND status = 'CLOSED'",
                ps -> ps.setString(1, orderPrefix + "%"),
                rs -> rs.getString(1)));
    succeededPerOrder.keySet().stream()
        .filter(closedOrders::contains)
        .sorted()
        .forEach(trade -> out.add(new Violation("succeeded_attempt_on_closed_order", trade)));
  }

  /** No attempt moved to a final status more than once. */
  private void checkFinalisedOnce(List<Violation> out) {
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
  }
}
