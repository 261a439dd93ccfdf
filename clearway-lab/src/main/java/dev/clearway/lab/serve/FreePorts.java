package dev.clearway.lab.serve;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A free port to be bound later, chosen below Linux's ephemeral range (32768 and up): a server
 * started meanwhile on port 0 (a simulator, a client's socket) takes an ephemeral port and so never
 * the one handed out here.
 */
public final class FreePorts {
  private static final int LOW = 20_000;
  private static final int HIGH = 32_767;

  private FreePorts() {}

  public static int next() {
    for (int i = 0; i < 200; i++) {
      int port = ThreadLocalRandom.current().nextInt(LOW, HIGH + 1);
      try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName("0.0.0.0"))) {
        return port;
      } catch (IOException taken) {
        // Try another.
      }
    }
    throw new IllegalStateException("no free port within [" + LOW + ", " + HIGH + "]");
  }
}
