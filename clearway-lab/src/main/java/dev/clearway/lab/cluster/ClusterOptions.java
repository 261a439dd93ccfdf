package dev.clearway.lab.cluster;

import java.nio.file.Path;

/**
 * The cluster chaos run's options.
 *
 * @param nodes engine nodes, each a JVM of its own
 * @param payments payments driven through the nodes' APIs
 * @param seed the seed of the simulators' faults, the kill schedule and the payment mix
 * @param killEverySeconds a random live node is killed with SIGKILL this often (0: never)
 * @param faultRate the simulators' fault probability
 * @param out where the CSV files go (null: none)
 * @param jdbcUrl the database (null: the machine's PostgreSQL on 127.0.0.1:5432 when it answers,
 *     else an embedded one)
 * @param brokerUrl RabbitMQ (null: amqp://guest:guest@127.0.0.1:5672)
 * @param concurrency client requests in flight
 * @param walletQps the wallet's budget in calls per second, summed over all nodes
 * @param timeoutSeconds the longest the convergence wait lasts after the load
 */
public record ClusterOptions(
    int nodes,
    int payments,
    long seed,
    int killEverySeconds,
    double faultRate,
    Path out,
    String jdbcUrl,
    String brokerUrl,
    int concurrency,
    int walletQps,
    int timeoutSeconds) {

  public static final String DEFAULT_BROKER = "amqp://guest:guest@127.0.0.1:5672";

  public ClusterOptions {
    require(nodes >= 1 && nodes <= 9, "--nodes must be within [1, 9]");
    require(payments >= 1 && payments <= 1_000_000, "--payments must be within [1, 1000000]");
    require(killEverySeconds >= 0, "--kill-every must be 0 (never) or more seconds");
    require(faultRate >= 0 && faultRate <= 1, "--fault-rate must be within [0, 1]");
    require(concurrency >= 1 && concurrency <= 256, "--concurrency must be within [1, 256]");
    require(walletQps >= 10, "--wallet-qps must be at least 10");
    require(timeoutSeconds >= 10, "--timeout must be at least 10 seconds");
    if (jdbcUrl != null && !jdbcUrl.startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException("--jdbc-url must be a jdbc:postgresql: URL");
    }
    if (brokerUrl != null && !brokerUrl.startsWith("amqp://")) {
      throw new IllegalArgumentException("--broker must be an amqp:// URL");
    }
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }

  public String brokerOrDefault() {
    return brokerUrl == null ? DEFAULT_BROKER : brokerUrl;
  }
}
