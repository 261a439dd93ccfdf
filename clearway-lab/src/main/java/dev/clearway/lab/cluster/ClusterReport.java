package dev.clearway.lab.cluster;

import dev.clearway.lab.chaos.Verdict;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/** The cluster chaos run's one JSON line: the chaos command's names, plus the cluster's own. */
record ClusterReport(
    ClusterOptions options,
    Verdict verdict,
    PaymentLoad load,
    ClusterEvents events,
    ClusterRig rig,
    int duplicateFlowsPerKey,
    double outagePeakRatio,
    double loadSeconds) {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  String toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("nodes", options.nodes());
    json.put("kills", events.kills());
    json.put("nodeRestarts", events.kills());
    json.put("postgresRestarts", restarted(events.postgres()));
    json.put("brokerRestarts", restarted(events.broker()));
    json.put("payments", options.payments());
    json.put("accepted", load.accepted());
    json.put("refused", load.refused());
    json.put("refusals", load.refusals());
    json.put("abandoned", load.abandoned());
    json.put("flows", verdict.payments());
    json.put("converged", verdict.converged());
    json.put("manualReview", verdict.manualReview());
    json.put("clientRetries", load.clientRetries());
    json.put("wakeupsViaBroker", rig.metrics().total(NodeMetrics.BROKER_WAKEUPS));
    json.put("scannerHits", rig.metrics().total(NodeMetrics.SCANNER_HITS));
    json.put("violations", verdict.violations());
    json.put("duplicateFlowsPerKey", duplicateFlowsPerKey);
    json.put("outagePeakRatio", Math.round(outagePeakRatio * 1000) / 1000.0);
    json.put("walletQps", options.walletQps());
    json.put("budgetSharing", rig.budgetSharing());
    json.put("acceptedPerSec", Math.round(load.accepted() / Math.max(loadSeconds, 0.001)));
    json.put("byStatus", verdict.byStatus());
    json.put("skipped", skipped());
    json.put("faultRate", options.faultRate());
    json.put("seed", options.seed());
    json.put("wallClockMs", verdict.wallClockMs());
    return JSON.writeValueAsString(json);
  }

  private static int restarted(ServerRestarts.Outcome outcome) {
    return outcome != null && outcome.restarted() ? 1 : 0;
  }

  /** Restarts that did not happen, with the reason. */
  private Map<String, String> skipped() {
    Map<String, String> skipped = new LinkedHashMap<>();
    note(skipped, "postgresRestart", events.postgres());
    note(skipped, "brokerRestart", events.broker());
    if (events.outageEnd() == null) {
      skipped.put("walletOutage", "the load ended before its turn");
    }
    return skipped;
  }

  private static void note(Map<String, String> skipped, String key, ServerRestarts.Outcome o) {
    if (o == null) {
      skipped.put(key, "the load ended before its turn");
    } else if (!o.restarted()) {
      skipped.put(key, o.detail());
    }
  }
}
