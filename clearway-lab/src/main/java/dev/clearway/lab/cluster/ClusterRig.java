package dev.clearway.lab.cluster;

import dev.clearway.lab.serve.FreePorts;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The cluster as separate processes: one database, the simulator process, and N engine nodes
 * ({@code clearway serve}) sharing the database, the broker and, when Redis answers on
 * 127.0.0.1:6379, the wallet's call budget.
 */
record ClusterRig(
    ClusterDatabase database,
    SimWorld sim,
    List<EngineNode> nodes,
    NodeMetrics metrics,
    String merchantKey,
    String budgetSharing,
    PrintStream progress)
    implements AutoCloseable {

  static final String MERCHANT = "cluster-shop";

  static ClusterRig start(ClusterOptions options, Path logs, PrintStream progress)
      throws InterruptedException {
    JavaProcesses java = JavaProcesses.ofRunningJvm(logs);
    ClusterDatabase database = ClusterDatabase.open(options);
    progress.println("cluster-chaos: database " + redactUser(database.nodeUrl()));
    List<Integer> ports = new ArrayList<>();
    for (int i = 0; i < options.nodes(); i++) {
      ports.add(FreePorts.next());
    }
    Map<String, String> secrets =
        Map.of(
            "CLEARWAY_SIM_WEBHOOK_SECRET", secret("whsec_"),
            "CLEARWAY_BUSINESS_SECRET", secret("bizsec_"));
    List<URI> callbacks =
        ports.stream().map(p -> URI.create("http://127.0.0.1:" + p + "/v1/callbacks/sim")).toList();
    SimWorld sim = SimWorld.start(java, options, callbacks, secrets);
    progress.println("cluster-chaos: simulators at " + sim.wallet() + " and " + sim.business());
    String merchantKey = secret("cw_cluster_");
    String metricsKey = secret("cw_metrics_");
    NodeMetrics metrics = new NodeMetrics(metricsKey);
    boolean redis = ClusterDatabase.answers("127.0.0.1", 6379);
    List<String> jvm = nodeJvmOptions(options, merchantKey, metricsKey, redis);
    List<EngineNode> nodes = new ArrayList<>();
    for (int i = 0; i < options.nodes(); i++) {
      List<String> args =
          List.of(
              "serve",
              "--port=" + ports.get(i),
              "--jdbc-url=" + database.nodeUrl(),
              "--wallet-url=" + sim.wallet(),
              "--business-url=" + sim.business(),
              "--broker=" + options.brokerOrDefault());
      nodes.add(new EngineNode("node-" + (i + 1), ports.get(i), java, jvm, args, secrets, metrics));
    }
    ClusterRig rig =
        new ClusterRig(
            database,
            sim,
            nodes,
            metrics,
            merchantKey,
            redis ? "redis" : "per-node-share",
            progress);
    nodes.forEach(EngineNode::start);
    for (EngineNode node : nodes) {
      if (!node.awaitReady(Duration.ofSeconds(180))) {
        rig.close();
        throw new IllegalStateException(node.name() + " did not become ready; see " + logs);
      }
    }
    progress.println("cluster-chaos: " + nodes.size() + " nodes ready; logs in " + logs);
    return rig;
  }

  /** The nodes' settings: compressed time, keys, the wallet's budget shared by the nodes. */
  private static List<String> nodeJvmOptions(
      ClusterOptions options, String merchantKey, String metricsKey, boolean redis) {
    List<String> jvm = new ArrayList<>();
    jvm.add("-Xmx512m");
    jvm.add("-XX:+UseSerialGC");
    jvm.add("-Dclearway.timing=compressed");
    jvm.add("-Dclearway.keys.merchant=" + MERCHANT + "=" + merchantKey);
    jvm.add("-Dclearway.keys.metrics=cluster-scraper=" + metricsKey);
    jvm.add("-Dclearway.budget.wallet-qps=" + options.walletQps());
    jvm.add("-Dclearway.budget.nodes=" + options.nodes());
    if (redis) {
      jvm.add("-Dclearway.redis.url=redis://127.0.0.1:6379");
    }
    jvm.add("-Dlogging.level.root=WARN");
    return jvm;
  }

  /** Every node started again if it is down, and ready. */
  void allUp() throws InterruptedException {
    for (EngineNode node : nodes) {
      if (!node.alive()) {
        node.start();
      }
    }
    for (EngineNode node : nodes) {
      node.awaitReady(Duration.ofSeconds(120));
    }
  }

  /** Reads every live node's counters. */
  void scrapeAll() {
    nodes.forEach(n -> metrics.scrape(n.name(), n.base()));
  }

  @Override
  public void close() {
    nodes.forEach(EngineNode::stop);
    sim.close();
    database.close();
  }

  private static String redactUser(String url) {
    return url.replaceAll("password=[^&]*", "password=***");
  }

  private static String secret(String prefix) {
    byte[] raw = new byte[20];
    new SecureRandom().nextBytes(raw);
    return prefix + HexFormat.of().formatHex(raw);
  }
}
