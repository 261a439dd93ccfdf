package dev.clearway.core.modelcheck;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.PaymentOrder;
import dev.clearway.core.channel.domain.RecoveryTask;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.fact.BizFact;
import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.flow.port.FlowStore.CreateResult;
import dev.clearway.core.latecharge.domain.LateChargeCheck;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.port.RefundStore.CreateOutcome;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Short renderings of rows and answers for traces. */
public final class Show {
  /** The origin of every model clock; times print as seconds after it. */
  public static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

  private Show() {}

  public static String time(Instant t) {
    if (t == null) {
      return "-";
    }
    long s = Duration.between(T0, t).toMillis();
    return s % 1000 == 0 ? "+" + s / 1000 + "s" : "+" + s / 1000.0 + "s";
  }

  public static String flow(PayFlow f) {
    return "#"
        + f.id()
        + " "
        + f.status()
        + " v"
        + f.version()
        + " lease="
        + (f.leaseOwner() == null ? "-" : f.leaseOwner())
        + " next="
        + time(f.nextRetryTime())
        + " retries="
        + f.retryCount()
        + (f.reviewState().needsPerson() ? " " + f.reviewState() : "")
        + (f.isCancelRequested() ? " cancel-requested" : "");
  }

  public static String refund(RefundOrder r) {
    return "refund#"
        + r.id()
        + " "
        + r.status()
        + " v"
        + r.version()
        + " lease="
        + (r.leaseOwner() == null ? "-" : r.leaseOwner())
        + " next="
        + time(r.nextRetryTime())
        + " retries="
        + r.retryCount();
  }

  public static String check(LateChargeCheck c) {
    return "check "
        + c.status()
        + " v"
        + c.version()
        + " lease="
        + (c.leaseOwner() == null ? "-" : c.leaseOwner())
        + " next="
        + time(c.nextCheckTime())
        + " retries="
        + c.retryCount()
        + (c.refundId() == null ? "" : " refund#" + c.refundId());
  }

  public static String attempt(Attempt a) {
    return "attempt#" + a.id() + " " + a.status() + " v" + a.version();
  }

  public static String task(RecoveryTask t) {
    return "task "
        + t.status()
        + " v"
        + t.version()
        + " owner="
        + (t.leaseOwner() == null ? "-" : t.leaseOwner())
        + " until="
        + time(t.leaseUntil())
        + " due="
        + time(t.dueAt())
        + " runs="
        + t.attemptCount();
  }

  public static String error(Throwable e) {
    return e.getClass().getSimpleName() + ": " + e.getMessage();
  }

  /** An answer of a port call. */
  public static String value(Object v) {
    if (v instanceof Optional<?> o) {
      return o.map(Show::value).orElse("empty");
    }
    if (v instanceof List<?> list) {
      return list.stream().map(Show::value).toList().toString();
    }
    if (v instanceof PayFlow f) {
      return flow(f);
    }
    if (v instanceof RefundOrder r) {
      return refund(r);
    }
    if (v instanceof LateChargeCheck c) {
      return check(c);
    }
    if (v instanceof Attempt a) {
      return attempt(a);
    }
    if (v instanceof RecoveryTask t) {
      return task(t);
    }
    if (v instanceof Instant t) {
      return time(t);
    }
    if (v instanceof CreateResult c) {
      return (c.created() ? "created " : "found ") + flow(c.flow());
    }
    if (v instanceof CreateOutcome.Created c) {
      return "created " + refund(c.refund());
    }
    if (v instanceof WalletResult w) {
      return w.certainty()
          + (w.errorCode() == null ? "" : " " + w.errorCode())
          + (w.retryable() ? " retryable" : "");
    }
    if (v instanceof BizFact b) {
      return b.state() + (b.attributedOrderNo() == null ? "" : " to " + b.attributedOrderNo());
    }
    if (v instanceof PspOutcome p) {
      return p.certainty()
          + (p.errorCode() == null ? "" : " " + p.errorCode())
          + (p.amount() == null ? "" : " amount " + p.amount());
    }
    if (v instanceof PaymentOrder o) {
      return "order " + o.tradeOrderNo() + (o.closed() ? " closed" : "");
    }
    if (v instanceof Answer.Thrown t) {
      return "threw " + t.type().getSimpleName() + ": " + t.message();
    }
    return String.valueOf(v);
  }
}
