package dev.clearway.psp.health;

import dev.clearway.core.channel.port.ChannelHealth;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A Resilience4j circuit breaker per channel account that takes the account out of routing for new
 * creates only. Queries, webhooks, closes and refunds of in-flight attempts never ask it: they keep
 * their paced budget on the original account.
 */
public final class CircuitBreakerHealth implements ChannelHealth {

  private final CircuitBreakerRegistry registry;

  public CircuitBreakerHealth(int windowSize, float failureRatePercent, Duration openFor) {
    CircuitBreakerConfig config =
        CircuitBreakerConfig.custom()
            .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
            .slidingWindowSize(windowSize)
            .minimumNumberOfCalls(windowSize)
            .failureRateThreshold(failureRatePercent)
            .waitDurationInOpenState(openFor)
            .permittedNumberOfCallsInHalfOpenState(Math.max(1, windowSize / 5))
            .automaticTransitionFromOpenToHalfOpenEnabled(false)
            .build();
    this.registry = CircuitBreakerRegistry.of(config);
  }

  public static CircuitBreakerHealth defaults() {
    return new CircuitBreakerHealth(20, 50f, Duration.ofSeconds(5));
  }

  private CircuitBreaker breaker(long accountId) {
    return registry.circuitBreaker("channel-account-" + accountId);
  }

  @Override
  public boolean admitsCreate(long channelAccountId) {
    CircuitBreaker.State state = breaker(channelAccountId).getState();
    return switch (state) {
      case CLOSED, HALF_OPEN, DISABLED, METRICS_ONLY -> true;
      // OPEN moves to HALF_OPEN once its wait is over: tryAcquirePermission does that check.
      case OPEN, FORCED_OPEN -> breaker(channelAccountId).tryAcquirePermission();
    };
  }

  @Override
  public void onCreate(long channelAccountId, boolean healthy) {
    CircuitBreaker breaker = breaker(channelAccountId);
    if (healthy) {
      breaker.onSuccess(0, TimeUnit.NANOSECONDS);
    } else {
      breaker.onError(0, TimeUnit.NANOSECONDS, new ChannelUnhealthy());
    }
  }

  /** The state of an account's breaker, for metrics and the console. */
  public String state(long channelAccountId) {
    return breaker(channelAccountId).getState().name();
  }

  private static final class ChannelUnhealthy extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ChannelUnhealthy() {
      super("create failed or unknown", null, false, false);
    }
  }
}
