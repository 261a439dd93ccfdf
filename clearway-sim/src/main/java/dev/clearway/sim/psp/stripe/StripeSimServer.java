package dev.clearway.sim.psp.stripe;

import dev.clearway.sim.psp.PspCharge;
import dev.clearway.sim.psp.PspFaults;
import dev.clearway.sim.psp.QueryRateMeter;
import dev.clearway.sim.psp.SimPsp;
import dev.clearway.sim.web.SimHttpServer;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One simulated Stripe account served over real HTTP on loopback, following the public behaviour of
 * Stripe's API: bearer secret key; form-encoded {@code POST /v1/payment_intents} with {@code
 * confirm=true} and a test payment method (see {@link StripeBook}); {@code Idempotency-Key} with
 * stored and replayed answers ({@code Idempotent-Replayed: true}), 400 {@code idempotency_error}
 * for other parameters and 409 {@code idempotency_key_in_use} while the first request executes;
 * retrieve, search by {@code metadata['attempt_key']} or {@code metadata['merchant_reference']},
 * cancel; refunds by key; signed webhooks with no ordering guarantee. Faults follow {@link
 * PspFaults}. Every answer carries a {@code Request-Id} header. The balance report of any interval
 * is served through Stripe's reporting API ({@link StripeReportRuns}).
 *
 * <pre>
 * try (StripeSimServer stripe = StripeSimServer.start(StripeSimOptions.defaults(sk, whsec))) {
 *   URI api = stripe.baseUrl();
 * }
 * </pre>
 */
public final class StripeSimServer implements SimPsp {
  private static final int WORKER_THREADS = 32;

  private final StripeSimOptions options;
  private final SimHttpServer server;
  private final ScheduledExecutorService background;
  private final StripeBook book;
  private final StripeWebhooks webhooks;
  private final QueryRateMeter queries;

  private StripeSimServer(StripeSimOptions options, ScheduledExecutorService background) {
    this.options = options;
    this.background = background;
    this.queries = new QueryRateMeter(options.clock());
    this.webhooks = new StripeWebhooks(options, background);
    this.book = new StripeBook(options, webhooks, background);
    this.server =
        SimHttpServer.start(
            options.port(),
            WORKER_THREADS,
            "stripe-sim-http",
            new StripeRouter(
                book,
                new StripeReportRuns(
                    book, options.clock(), background, options.timing().asyncDelay()),
                options,
                queries));
  }

  /**
   * Binds to loopback and starts serving.
   *
   * @throws UncheckedIOException if the port cannot be bound
   */
  public static StripeSimServer start(StripeSimOptions options) {
    Objects.requireNonNull(options, "options");
    ScheduledExecutorService background =
        Executors.newScheduledThreadPool(4, daemons("stripe-sim-background-"));
    try {
      return new StripeSimServer(options, background);
    } catch (RuntimeException e) {
      background.shutdownNow();
      throw e;
    }
  }

  @Override
  public URI baseUrl() {
    return server.baseUrl();
  }

  @Override
  public String account() {
    return options.account();
  }

  @Override
  public PspFaults faults() {
    return options.faults();
  }

  @Override
  public QueryRateMeter queries() {
    return queries;
  }

  @Override
  public List<PspCharge> ledger() {
    return book.ledger();
  }

  /** Each refund's Stripe status by the number it was created with. */
  public java.util.Map<String, String> refundStatuses() {
    return book.refundStatuses();
  }

  /**
   * The account's balance transactions of one UTC day, as Stripe's balance report CSV ({@code
   * id,type,amount,fee,net,currency,created,source,metadata_attempt_key,refund_metadata_refund_no}).
   */
  public byte[] balanceReport(java.time.LocalDate day) {
    return book.balanceReport(day.atStartOfDay(java.time.ZoneOffset.UTC).toEpochSecond());
  }

  /** The differences this account injects into what it answers and what its report shows. */
  public dev.clearway.sim.psp.PspInjections injections() {
    return book.injections();
  }

  /**
   * Reverses the succeeded charge of {@code merchantReference} after its settlement (a chargeback):
   * an adjustment in the balance report of the day of {@code at}. Recorded as an injected {@code
   * ADJUSTMENT_TO_REVIEW}. Returns false when the reference has no succeeded charge.
   */
  public boolean reverse(String merchantReference, java.time.Instant at) {
    return book.reverse(merchantReference, at.getEpochSecond());
  }

  @Override
  public void webhookTarget(URI target) {
    webhooks.target(target);
  }

  /**
   * Where webhooks go from now on: to any of {@code targets} (the nodes of a cluster), each copy to
   * the next in turn, and a retry after a transport error or a 5xx to the one after. Empty: stop.
   */
  public void webhookTargets(List<URI> targets) {
    webhooks.targets(targets);
  }

  /** Webhook delivery attempts so far, retries and duplicates included. */
  public long webhookAttempts() {
    return webhooks.attempts();
  }

  /** Webhook deliveries answered 2xx. */
  public long webhooksDelivered() {
    return webhooks.delivered();
  }

  /** Stops listening at once; open connections, pending settlements and webhooks are dropped. */
  @Override
  public void close() {
    server.close();
    background.shutdownNow();
  }

  private static ThreadFactory daemons(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
