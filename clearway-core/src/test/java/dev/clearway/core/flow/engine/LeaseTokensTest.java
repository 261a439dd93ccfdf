package dev.clearway.core.flow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.runtime.LeaseTokens;
import dev.clearway.core.runtime.TokenMint;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Lease tokens are unique across processes, even two configured with the same instance id. */
class LeaseTokensTest {
  private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

  @Test
  void twoReplicasWithTheSameInstanceIdNeverMintTheSameToken() {
    // Two processes (two mints) started with the same configured instance id.
    LeaseTokens first = new LeaseTokens("node-a", CLOCK, EngineConfig.production());
    LeaseTokens second = new LeaseTokens("node-a", CLOCK, EngineConfig.production());

    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 5_000; i++) {
      assertThat(seen.add(first.next().token())).isTrue();
      assertThat(seen.add(second.next().token())).isTrue();
    }
    assertThat(seen).hasSize(10_000);
  }

  @Test
  void aTokenNamesItsInstanceFitsTheColumnAndItsLeaseEndsALeaseFromNow() {
    LeaseTokens tokens = new LeaseTokens("x".repeat(200), CLOCK, EngineConfig.production());

    Lease lease = tokens.next();

    assertThat(lease.token()).startsWith("xxxx").hasSizeLessThanOrEqualTo(96);
    assertThat(lease.until()).isEqualTo(NOW.plus(Duration.ofSeconds(30)));
  }

  @Test
  void everyMintHasItsOwnRandomPart() {
    String a = new TokenMint("w1").next();
    String b = new TokenMint("w1").next();

    assertThat(a).startsWith("w1/").isNotEqualTo(b);
  }
}
