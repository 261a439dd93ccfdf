package dev.clearway.lab.cluster;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Starts this application's own commands ({@code sim}, {@code serve}) as JVMs of their own: the
 * same {@code java} and the same jar as the running process, each with its output in a log file.
 */
final class JavaProcesses {
  private final String java;
  private final Path jar;
  private final Path logs;

  private JavaProcesses(String java, Path jar, Path logs) {
    this.java = java;
    this.jar = jar;
    this.logs = logs;
  }

  /**
   * The launcher of the running JVM: its {@code java} binary and the application jar it was started
   * with ({@code java -jar clearway.jar}), else {@code clearway-lab/target/clearway.jar}.
   */
  static JavaProcesses ofRunningJvm(Path logs) {
    String java = ProcessHandle.current().info().command().orElse("java");
    String classPath = System.getProperty("java.class.path", "");
    Path jar =
        classPath.endsWith(".jar") && !classPath.contains(File.pathSeparator)
            ? Path.of(classPath)
            : Path.of("clearway-lab", "target", "clearway.jar");
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          "the application jar " + jar + " is missing: run ./clearway, which builds it");
    }
    try {
      Files.createDirectories(logs);
    } catch (IOException e) {
      throw new UncheckedIOException("create " + logs, e);
    }
    return new JavaProcesses(java, jar.toAbsolutePath(), logs);
  }

  Path logs() {
    return logs;
  }

  /**
   * Starts {@code java <jvmOptions> -jar clearway.jar <args>}, stdout and stderr appended to {@code
   * logs/<name>.log} unless {@code pipeStdout}, which keeps stdout readable by the caller.
   */
  Process start(
      String name,
      List<String> jvmOptions,
      List<String> args,
      Map<String, String> env,
      boolean pipeStdout) {
    List<String> command = new ArrayList<>();
    command.add(java);
    command.addAll(jvmOptions);
    command.add("-jar");
    command.add(jar.toString());
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().putAll(env);
    Path log = logs.resolve(name + ".log");
    builder.redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
    if (!pipeStdout) {
      builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    }
    try {
      return builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException("start " + name, e);
    }
  }
}
