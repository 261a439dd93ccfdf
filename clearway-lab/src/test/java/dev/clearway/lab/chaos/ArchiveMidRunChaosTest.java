package dev.clearway.lab.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A chaos run with the retention job archiving every ended flow every 200 ms while payments are
 * driven (goals keep receiving new attempts meanwhile): every flow converges and no invariant is
 * violated over the hot and archive tables together.
 */
class ArchiveMidRunChaosTest {
  private static final int PAYMENTS = 1_000;

  @Test
  void invariantsAndChaosChecksHoldAcrossArchiveRuns() {
    ChaosOptions options = new ChaosOptions(PAYMENTS, 20261202L, 0.3, 16, null, null, 600);
    ChaosRun.Report report =
        new ChaosRun(options, System.err).archivingMidRun(Duration.ofMillis(200)).run();

    System.err.println("faults: " + report.faultSummary());
    Verdict v = report.verdict();
    assertThat(v.violations()).allSatisfy((k, n) -> assertThat(n).as(k).isZero());
    assertThat(v.converged()).isEqualTo(PAYMENTS);
    assertThat(v.passed()).as("%s", report.examples()).isTrue();
    Matcher archived =
        Pattern.compile("archived mid-run (\\d+) in (\\d+) runs").matcher(report.faultSummary());
    assertThat(archived.find()).as(report.faultSummary()).isTrue();
    assertThat(Long.parseLong(archived.group(1)))
        .as("flows archived mid-run")
        .isGreaterThan(PAYMENTS / 4);
    assertThat(Long.parseLong(archived.group(2))).as("archive runs").isGreaterThan(2);
  }
}
