package dev.clearway.lab.bench;

import dev.clearway.lab.sim.QuietLogging;
import dev.clearway.lab.sim.SimProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The simulated wallet and business of {@code bench soak} in a JVM of their own, so that what they
 * keep for their statements (every order, grant and ledger line of the run) is not counted in the
 * service's heap: {@code SimJvmMain --callback-url URL}, the two secrets in {@link
 * #WEBHOOK_SECRET_VARIABLE} and {@link #BUSINESS_SECRET_VARIABLE} (never on a command line), no
 * faults. Prints {@link #READY} and the endpoints as one JSON object; then answers each {@link
 * #HEAP} line on stdin with {@link #HEAP} and its own heap after a full collection in bytes; ends
 * when stdin closes.
 */
public final class SimJvmMain {
  static final String WEBHOOK_SECRET_VARIABLE = "CLEARWAY_SIM_WEBHOOK_SECRET";
  static final String BUSINESS_SECRET_VARIABLE = "CLEARWAY_BUSINESS_SECRET";
  static final String READY = "SIM READY ";
  static final String HEAP = "SIM HEAP";

  private SimJvmMain() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 2 || !args[0].equals("--callback-url")) {
      System.err.println("sim: --callback-url URL is required");
      System.exit(2);
    }
    QuietLogging.toStandardError();
    SimProcess.Options options =
        new SimProcess.Options(
            0,
            0,
            42,
            List.of(URI.create(args[1])),
            System.getenv(WEBHOOK_SECRET_VARIABLE),
            System.getenv(BUSINESS_SECRET_VARIABLE));
    try (SimProcess sim = SimProcess.start(options)) {
      System.out.println(READY + sim.readyLine());
      System.out.flush();
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      String line;
      while ((line = in.readLine()) != null) {
        if (line.equals(HEAP)) {
          System.out.println(HEAP + " " + ServiceJvm.heapAfterGc());
          System.out.flush();
        }
      }
    }
    System.exit(0);
  }
}
