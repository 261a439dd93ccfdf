package dev.clearway.lab.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/**
 * An optional flight recording of the service JVM (this one) with the "profile" settings, over the
 * measured time only, written to a file for {@code jfr print} / {@code jfr summary}.
 */
final class ServiceProfile {
  private final Path file;
  private Recording recording;

  /** {@code file} null: no recording. */
  ServiceProfile(Path file) {
    this.file = file;
  }

  synchronized void start() {
    if (file == null) {
      return;
    }
    try {
      recording = new Recording(Configuration.getConfiguration("profile"));
      recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
      recording.start();
    } catch (IOException | java.text.ParseException e) {
      throw new IllegalStateException("start the flight recording", e);
    }
  }

  synchronized void stop() {
    if (recording == null) {
      return;
    }
    try {
      recording.stop();
      recording.dump(file);
      recording.close();
    } catch (IOException e) {
      throw new UncheckedIOException("write the flight recording " + file, e);
    }
  }
}
