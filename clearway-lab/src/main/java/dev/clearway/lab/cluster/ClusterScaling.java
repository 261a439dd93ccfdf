package dev.clearway.lab.cluster;

import dev.clearway.lab.chaos.FlowSnapshot;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code clearway bench cluster}: the throughput of 1, 2, 3... engine nodes on one database, in one
 * run on one machine: for each node count a fresh database, the simulator process without faults,
 * the nodes as JVMs of their own, and the same payments through their APIs; payments per second
 * accepted, and until every flow is terminal.
 */
public final class ClusterScaling {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** Options of the scaling run. */
  public record Options(List<Integer> nodeCounts, int payments, int concurrency, String jdbcUrl) {
    public Options {
      if (nodeCounts.isEmpty() || nodeCounts.stream().anyMatch(n -> n < 1 || n > 9)) {
        throw new IllegalArgumentException("--nodes-list must name node counts within [1, 9]");
      }
      nodeCounts = List.copyOf(nodeCounts);
    }
  }

  private ClusterScaling() {}

  public static int run(Options options, PrintStream out, PrintStream err)
      throws InterruptedException {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int nodes : options.nodeCounts()) {
      rows.add(measure(options, nodes, err));
      err.println("bench cluster: " + rows.get(rows.size() - 1));
    }
    double base = ((Number) rows.get(0).get("acceptedPerSec")).doubleValue();
    for (Map<String, Object> row : rows) {
      double rate = ((Number) row.get("acceptedPerSec")).doubleValue();
      row.put("ratioToFirst", Math.round(rate / Math.max(base, 0.001) * 100) / 100.0);
    }
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("payments", options.payments());
    json.put("concurrency", options.concurrency());
    json.put("throughput", rows);
    out.println(JSON.writeValueAsString(json));
    return 0;
  }

  private static Map<String, Object> measure(Options options, int nodes, PrintStream err)
      throws InterruptedException {
    ClusterOptions cluster =
        new ClusterOptions(
            nodes,
            options.payments(),
            1000 + nodes,
            0,
            0.0,
            null,
            options.jdbcUrl(),
            null,
            options.concurrency(),
            1_000_000,
            120);
    try (ClusterRig rig = ClusterRig.start(cluster, logs(), err)) {
      PaymentLoad load =
          new PaymentLoad(rig.nodes(), rig.merchantKey(), 1000 + nodes, options.payments());
      long started = System.nanoTime();
      load.run(options.concurrency());
      double loadSeconds = (System.nanoTime() - started) / 1e9;
      while (FlowSnapshot.unconverged(rig.database().database().dataSource()) > 0
          && (System.nanoTime() - started) / 1e9 < loadSeconds + 120) {
        Thread.sleep(100);
      }
      double terminalSeconds = (System.nanoTime() - started) / 1e9;
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("nodes", nodes);
      row.put("accepted", load.accepted());
      row.put("acceptedPerSec", Math.round(load.accepted() / loadSeconds));
      row.put("terminalPerSec", Math.round(load.accepted() / terminalSeconds));
      row.put("clientRetries", load.clientRetries());
      row.put("synchronousCommit", rig.database().database().synchronousCommit());
      return row;
    }
  }

  private static Path logs() {
    try {
      return Files.createTempDirectory("clearway-bench-cluster-");
    } catch (IOException e) {
      throw new UncheckedIOException("create a log directory", e);
    }
  }
}
