package dev.clearway.core.channel.port;

import java.util.Objects;

/**
 * The channel layer's stores, one per role, as wired together. Each engine class keeps only the
 * ones it uses.
 */
public record ChannelStores(
    ChannelAccountStore accounts,
    PaymentOrderStore orders,
    AttemptStore attempts,
    RecoveryTaskStore tasks,
    EvidenceStore evidence,
    CompensationStore compensations,
    ChannelRefundStore refunds,
    WebhookInbox inbox) {

  public ChannelStores {
    Objects.requireNonNull(accounts, "accounts");
    Objects.requireNonNull(orders, "orders");
    Objects.requireNonNull(attempts, "attempts");
    Objects.requireNonNull(tasks, "tasks");
    Objects.requireNonNull(evidence, "evidence");
    Objects.requireNonNull(compensations, "compensations");
    Objects.requireNonNull(refunds, "refunds");
    Objects.requireNonNull(inbox, "inbox");
  }

  /** Every role served by one object (an in-memory store). */
  public static <
          S extends
              ChannelAccountStore & PaymentOrderStore & AttemptStore & RecoveryTaskStore
                  & EvidenceStore & CompensationStore & ChannelRefundStore & WebhookInbox>
      ChannelStores of(S all) {
    return new ChannelStores(all, all, all, all, all, all, all, all);
  }
}
