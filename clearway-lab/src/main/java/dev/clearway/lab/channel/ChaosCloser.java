package dev.clearway.lab.channel;

import dev.clearway.core.channel.engine.ChannelGateway;
import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.store.Sql;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * The flow engine's deadline in the chaos run: a wallet order whose attempt is still live (the
 * customer has not paid, or the result is not known) {@link #CLOSE_AFTER} after the attempt was
 * created is closed through the gateway. Closed: the attempt FAILED with code CLOSED; the customer
 * paid meanwhile: ALREADY_PAID and the attempt SUCCEEDED; no answer: tried again a second later.
 * Each outcome is counted ({@code closes_<outcome>}).
 */
final class ChaosCloser {

  /** When the driver closes a wallet order whose attempt is still live (the flow's deadline). */
  static final Duration CLOSE_AFTER = Duration.ofSeconds(5);

  private final DataSource dataSource;
  private final ChannelGateway gateway;
  private final String prefix;
  private final ChaosCounts counts;
  private final Map<String, Long> tried = new ConcurrentHashMap<>();

  ChaosCloser(DataSource dataSource, ChannelGateway gateway, String prefix, ChaosCounts counts) {
    this.dataSource = dataSource;
    this.gateway = gateway;
    this.prefix = prefix;
    this.counts = counts;
  }

  /**
   * One round: closes the overdue orders not tried within the last second. Returns the closes sent.
   */
  int closeOverdue() {
    int sent = 0;
    for (String trade : overdue()) {
      long now = System.nanoTime();
      Long last = tried.get(trade);
      if (last != null && now - last < TimeUnit.SECONDS.toNanos(1)) {
        continue;
      }
      tried.put(trade, now);
      WalletResult closed = gateway.closePayment(trade);
      sent++;
      String outcome =
          switch (closed.certainty()) {
            case SUCCESS -> "CLOSED";
            case DEFINITE_FAILURE ->
                closed.errorCode() == null ? "FAILED" : closed.errorCode().replace(' ', '_');
            default -> "UNKNOWN";
          };
      counts.count("closes_" + outcome);
    }
    return sent;
  }

  /** The run's wallet orders with a live attempt older than {@link #CLOSE_AFTER}, not manual. */
  private List<String> overdue() {
    Instant cutoff = Clock.systemUTC().instant().minus(CLOSE_AFTER);
    return new Sql(dataSource)
        .query(
            """
            SELECT DISTINCT a.trade_order_no FROM payment_attempt a
            JOIN payment_order o ON o.trade_order_no = a.trade_order_no
            WHERE a.trade_order_no LIKE ? AND o.payment_method = 'wallet'
              AND a.status IN ('CREATED', 'PENDING', 'UNKNOWN') AND a.created_at < ?
              AND NOT EXISTS (SELECT 1 FROM recovery_task t
                              WHERE t.attempt_id = a.id AND t.status = 'MANUAL')
            """,
            ps -> {
              ps.setString(1, prefix + "%");
              ps.setObject(2, Sql.ts(cutoff));
            },
            rs -> rs.getString(1));
  }
}
