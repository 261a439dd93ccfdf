package dev.clearway.lab.bench;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipFile;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs {@link ApiLoadMain} in a JVM of its own with the running JVM's {@code java} and class path
 * (through Spring Boot's launcher when that class path is the application jar), and calls back at
 * its markers so that the caller reads the service's counters at the same instants.
 */
final class LoadProcess {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String LAUNCHER =
      "org.springframework.boot.loader.launch.PropertiesLauncher";

  /** Called on the reading thread at the load generator's markers. */
  interface Marks {
    void warmupDone();

    void measureDone();
  }

  private LoadProcess() {}

  /** Runs the plan against {@code base} and returns the load generator's figures. */
  static JsonNode run(URI base, String merchantKey, ApiLoad.Plan plan, Marks marks) {
    ProcessBuilder builder = new ProcessBuilder(command(base, plan));
    builder.environment().put(ApiLoadMain.KEY_VARIABLE, merchantKey);
    builder.redirectError(ProcessBuilder.Redirect.INHERIT);
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException("start the load generator", e);
    }
    try (BufferedReader lines =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      JsonNode result = null;
      String line;
      while ((line = lines.readLine()) != null) {
        if (line.equals(ApiLoad.WARMUP_DONE)) {
          marks.warmupDone();
        } else if (line.equals(ApiLoad.MEASURE_DONE)) {
          marks.measureDone();
        } else if (line.startsWith(ApiLoadMain.RESULT)) {
          result = JSON.readTree(line.substring(ApiLoadMain.RESULT.length()));
        }
      }
      process.waitFor((long) plan.endSec() + 120, TimeUnit.SECONDS);
      if (result == null) {
        throw new IllegalStateException("the load generator ended without figures");
      }
      return result;
    } catch (IOException e) {
      throw new UncheckedIOException("read the load generator", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while the load generator ran", e);
    } finally {
      process.destroy();
    }
  }

  private static List<String> command(URI base, ApiLoad.Plan plan) {
    List<String> command = java(ApiLoadMain.class);
    command.addAll(
        List.of(
            "--base",
            base.toString(),
            "--concurrency",
            String.valueOf(plan.concurrency()),
            "--rate",
            num(plan.rate()),
            "--warmup",
            num(plan.warmupSec()),
            "--duration",
            num(plan.durationSec()),
            "--window",
            num(plan.windowSec())));
    return command;
  }

  /**
   * The command line that runs {@code main} in a new JVM (256 MB heap, serial collector) with this
   * JVM's {@code java} and class path, arguments to be added.
   */
  static List<String> java(Class<?> main) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.add("-XX:+UseSerialGC");
    String classPath = System.getProperty("java.class.path", "");
    command.add("-cp");
    command.add(classPath);
    if (isBootJar(classPath)) {
      command.add("-Dloader.main=" + main.getName());
      command.add(LAUNCHER);
    } else {
      command.add(main.getName());
    }
    return command;
  }

  private static String num(double v) {
    return String.format(Locale.ROOT, "%.3f", v);
  }

  /** Whether the class path is one Spring Boot application jar (classes under BOOT-INF/). */
  private static boolean isBootJar(String classPath) {
    if (!classPath.endsWith(".jar") || classPath.contains(File.pathSeparator)) {
      return false;
    }
    Path jar = Path.of(classPath);
    if (!Files.isRegularFile(jar)) {
      return false;
    }
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      return zip.getEntry("BOOT-INF/classes/") != null || zip.getEntry("BOOT-INF/lib/") != null;
    } catch (IOException e) {
      return false;
    }
  }
}
