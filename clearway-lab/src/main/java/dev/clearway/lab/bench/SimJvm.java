package dev.clearway.lab.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The simulated wallet and business in a JVM of their own ({@link SimJvmMain}), started with this
 * JVM's {@code java} and class path; the service talks to them over HTTP as it does in-process, and
 * the soak reads their heap apart from the service's.
 */
final class SimJvm implements AutoCloseable {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final Process process;
  private final BufferedReader lines;
  private final Writer commands;
  private final URI wallet;
  private final URI business;
  private final URI ledger;

  private SimJvm(Process process, BufferedReader lines, Writer commands, JsonNode ready) {
    this.process = process;
    this.lines = lines;
    this.commands = commands;
    this.wallet = URI.create(ready.get("wallet").stringValue());
    this.business = URI.create(ready.get("business").stringValue());
    this.ledger = URI.create(ready.get("ledger").stringValue());
  }

  /**
   * Starts the simulators, their wallet calling back {@code callbackUrl} signed with {@code
   * webhookSecret}, the business signing with {@code businessSecret}; returns once they serve.
   */
  static SimJvm start(URI callbackUrl, String webhookSecret, String businessSecret) {
    List<String> command = LoadProcess.java(SimJvmMain.class);
    command.addAll(List.of("--callback-url", callbackUrl.toString()));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put(SimJvmMain.WEBHOOK_SECRET_VARIABLE, webhookSecret);
    builder.environment().put(SimJvmMain.BUSINESS_SECRET_VARIABLE, businessSecret);
    builder.redirectError(ProcessBuilder.Redirect.INHERIT);
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException("start the simulators' JVM", e);
    }
    BufferedReader lines =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    Writer commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    try {
      String ready = after(lines, SimJvmMain.READY);
      return new SimJvm(process, lines, commands, JSON.readTree(ready));
    } catch (RuntimeException e) {
      process.destroy();
      throw e;
    }
  }

  URI wallet() {
    return wallet;
  }

  URI business() {
    return business;
  }

  /** Their ledger/control server: what the wallet really charged and the business granted. */
  URI ledger() {
    return ledger;
  }

  /**
   * CPU time of the simulators' JVM so far, in nanoseconds, or -1 where the platform does not say.
   */
  long cpuNanos() {
    return process.info().totalCpuDuration().map(java.time.Duration::toNanos).orElse(-1L);
  }

  /** The simulators' JVM's heap right after a full collection, in bytes. */
  synchronized long heapAfterGc() {
    try {
      commands.write(SimJvmMain.HEAP + "\n");
      commands.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("ask the simulators' JVM for its heap", e);
    }
    return Long.parseLong(after(lines, SimJvmMain.HEAP + " ").trim());
  }

  /** The rest of the first line starting with {@code marker}; other lines are skipped. */
  private static String after(BufferedReader lines, String marker) {
    try {
      String line;
      while ((line = lines.readLine()) != null) {
        if (line.startsWith(marker)) {
          return line.substring(marker.length());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("read the simulators' JVM", e);
    }
    throw new IllegalStateException("the simulators' JVM ended before " + marker.trim());
  }

  /** Closes its stdin (it stops on that) and waits a little before ending it. */
  @Override
  public void close() {
    try {
      commands.close();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroy();
      }
    } catch (IOException e) {
      process.destroy();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroy();
    }
  }
}
