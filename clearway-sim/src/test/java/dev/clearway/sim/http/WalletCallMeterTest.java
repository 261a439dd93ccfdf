package dev.clearway.sim.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.sim.http.WalletCallMeter.Second;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class WalletCallMeterTest {
  private final TestClock clock = new TestClock();
  private final WalletCallMeter meter = new WalletCallMeter(clock);

  @Test
  void countsEachSecondAndForgetsSecondsOutsideTheWindow() {
    long start = clock.instant().getEpochSecond();
    meter.record();
    meter.record();
    clock.advance(Duration.ofSeconds(1));
    meter.record();

    assertThat(meter.perSecond()).containsExactly(new Second(start, 2), new Second(start + 1, 1));

    // The same ring slot, one window later: the old count is replaced, not added to.
    clock.advance(Duration.ofSeconds(WalletCallMeter.WINDOW_SECONDS - 1));
    meter.record();
    assertThat(meter.perSecond())
        .containsExactly(
            new Second(start + 1, 1), new Second(start + WalletCallMeter.WINDOW_SECONDS, 1));
    clock.advance(Duration.ofSeconds(1));
    assertThat(meter.perSecond())
        .containsExactly(new Second(start + WalletCallMeter.WINDOW_SECONDS, 1));
    assertThat(meter.total()).isEqualTo(1);
  }
}
