package dev.clearway.boot;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code clearway.redis.*}: the cluster options over Redis (module {@code clearway-redis}).
 *
 * @param url {@code redis://host:port[/db]}; when set, the entry lock and the call budget of each
 *     account are shared by every node through this Redis
 * @param lockTtl how long an entry lock lives if its holder never releases it (default 5 s)
 * @param timeout how long one Redis command may take before the caller falls back (default 250 ms)
 * @param downFor how long Redis is left alone after a failure, every call falling back at once
 *     (default 1 s)
 */
@ConfigurationProperties(prefix = "clearway.redis")
public record ClearwayRedisProperties(
    String url, Duration lockTtl, Duration timeout, Duration downFor) {

  public Duration lockTtlOrDefault() {
    return lockTtl == null ? Duration.ofSeconds(5) : lockTtl;
  }

  public Duration timeoutOrDefault() {
    return timeout == null ? Duration.ofMillis(250) : timeout;
  }

  public Duration downForOrDefault() {
    return downFor == null ? Duration.ofSeconds(1) : downFor;
  }
}
