package dev.clearway.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collection;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/** Keeps the JMH benchmarks runnable: one short in-process iteration of each, no figures kept. */
class DecisionBenchmarkSmokeTest {

  @Test
  void everyBenchmarkRunsAndReportsAScore() throws Exception {
    Options options =
        new OptionsBuilder()
            .include(DecisionBenchmark.class.getSimpleName())
            .forks(0)
            .warmupIterations(0)
            .measurementIterations(1)
            .measurementTime(TimeValue.milliseconds(50))
            .build();
    Collection<RunResult> results = new Runner(options).run();
    assertThat(results).hasSize(9);
    assertThat(results).allSatisfy(r -> assertThat(r.getPrimaryResult().getScore()).isPositive());
  }
}
