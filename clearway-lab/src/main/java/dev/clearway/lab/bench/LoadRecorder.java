package dev.clearway.lab.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the load generator saw of each payment: when it was meant to start (nanoseconds after the
 * run began), its POST latency and its create-to-terminal latency (both from the intended start, so
 * an open loop's queueing counts), and the figures of any interval of start times.
 */
final class LoadRecorder {
  /**
   * One payment; {@code terminalMicros} is -1 when it failed or did not end in time; {@code polls}
   * is the number of GETs sent after its POST.
   */
  record Sample(long startNanos, long postMicros, long terminalMicros, int polls) {}

  private final List<Sample> samples = new ArrayList<>();

  synchronized void add(Sample sample) {
    samples.add(sample);
  }

  /**
   * The payments that started within [fromSec, toSec) of the run: payments reaching terminal per
   * second of the interval, POST and terminal p50 / p99 in ms, the failed ones, and the GETs sent
   * per payment of the interval (each payment polls until its flow is final).
   */
  synchronized Map<String, Object> figures(double fromSec, double toSec) {
    long from = (long) (fromSec * 1e9);
    long to = (long) (toSec * 1e9);
    List<Long> posts = new ArrayList<>();
    List<Long> terminals = new ArrayList<>();
    int failed = 0;
    long polls = 0;
    for (Sample s : samples) {
      if (s.startNanos() < from || s.startNanos() >= to) {
        continue;
      }
      polls += s.polls();
      if (s.terminalMicros() < 0) {
        failed++;
        continue;
      }
      posts.add(s.postMicros());
      terminals.add(s.terminalMicros());
    }
    long[] post = sorted(posts);
    long[] terminal = sorted(terminals);
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("payments", terminal.length);
    f.put("failed", failed);
    f.put("paymentsPerSec", BenchJson.fixed(terminal.length / Math.max(1e-9, toSec - fromSec), 2));
    f.put("postP50Ms", ms(post, 0.50));
    f.put("postP99Ms", ms(post, 0.99));
    f.put("terminalP50Ms", ms(terminal, 0.50));
    f.put("terminalP99Ms", ms(terminal, 0.99));
    int sent = terminal.length + failed;
    f.put("getsPerPayment", BenchJson.fixed(sent == 0 ? 0 : (double) polls / sent, 3));
    return f;
  }

  private static long[] sorted(List<Long> values) {
    return values.stream().mapToLong(Long::longValue).sorted().toArray();
  }

  private static Object ms(long[] sortedMicros, double q) {
    return BenchJson.fixed(PaymentBench.percentile(sortedMicros, q) / 1e3, 3);
  }
}
