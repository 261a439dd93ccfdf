package dev.clearway.lab.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Restarts the machine's PostgreSQL and RabbitMQ with their own control commands. Each answers what
 * happened: restarted, or skipped with the reason.
 */
final class ServerRestarts {
  private final Path logs;

  ServerRestarts(Path logs) {
    this.logs = logs;
  }

  /** The outcome of one restart. */
  record Outcome(boolean restarted, String detail) {}

  /** {@code pg_ctlcluster <version> main restart}, then waits until port 5432 answers. */
  Outcome restartPostgres() {
    Path etc = Path.of("/etc/postgresql");
    if (!Files.isDirectory(etc)) {
      return new Outcome(false, "no /etc/postgresql: not the machine's server");
    }
    String version;
    try (Stream<Path> versions = Files.list(etc)) {
      version =
          versions.map(p -> p.getFileName().toString()).sorted().reduce((a, b) -> b).orElse(null);
    } catch (IOException e) {
      return new Outcome(false, "cannot list /etc/postgresql: " + e.getMessage());
    }
    if (version == null) {
      return new Outcome(false, "no cluster under /etc/postgresql");
    }
    Outcome run =
        run(
            "postgres-restart",
            List.of("pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "restart"),
            60);
    if (!run.restarted()) {
      return run;
    }
    return awaitPort(5432, Duration.ofSeconds(30), "PostgreSQL " + version);
  }

  /** {@code rabbitmqctl stop}, then {@code rabbitmq-server -detached} and waits for it. */
  Outcome restartRabbitMq() {
    Outcome stop = run("rabbitmq-restart", List.of("rabbitmqctl", "stop"), 60);
    if (!stop.restarted()) {
      return stop;
    }
    Outcome start = run("rabbitmq-restart", List.of("rabbitmq-server", "-detached"), 30);
    if (!start.restarted()) {
      return start;
    }
    run("rabbitmq-restart", List.of("rabbitmqctl", "await_startup", "--timeout", "60"), 90);
    return awaitPort(5672, Duration.ofSeconds(60), "RabbitMQ");
  }

  private Outcome awaitPort(int port, Duration within, String what) {
    Instant end = Instant.now().plus(within);
    while (Instant.now().isBefore(end)) {
      if (ClusterDatabase.answers("127.0.0.1", port)) {
        return new Outcome(true, what + " restarted");
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return new Outcome(false, what + " did not answer on port " + port + " after the restart");
  }

  private Outcome run(String log, List<String> command, int seconds) {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.redirectOutput(ProcessBuilder.Redirect.appendTo(logs.resolve(log + ".log").toFile()));
    try {
      Process p = builder.start();
      if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return new Outcome(false, String.join(" ", command) + " did not finish");
      }
      return p.exitValue() == 0
          ? new Outcome(true, String.join(" ", command))
          : new Outcome(false, String.join(" ", command) + " exited " + p.exitValue());
    } catch (IOException e) {
      return new Outcome(false, command.get(0) + " cannot be run here: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Outcome(false, "interrupted");
    }
  }
}
