package dev.clearway.psp.policy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The policy shipped with Clearway ({@value #RESOURCE} on the classpath), activated at start-up
 * when no policy is ACTIVE yet. It parses and validates against {@link ChannelCapabilities}.
 */
public final class DefaultRecoveryPolicy {

  public static final String RESOURCE = "recovery-policy/default.yaml";

  private DefaultRecoveryPolicy() {}

  /** The file's text (UTF-8). */
  public static String text() {
    try (InputStream in =
        DefaultRecoveryPolicy.class.getClassLoader().getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from the classpath");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("read " + RESOURCE, e);
    }
  }
}
