package dev.clearway.lab.bench;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;

/**
 * The load generator of {@code bench api} and {@code bench soak}, a JVM of its own so that its CPU
 * is not the service's: {@code ApiLoadMain --base URL --concurrency C --rate R --warmup S
 * --duration S --window S}, the merchant key in the environment variable {@link #KEY_VARIABLE}
 * (never on a command line). Prints the markers of {@link ApiLoad}, then {@link #RESULT} and the
 * figures as one JSON object.
 */
public final class ApiLoadMain {
  static final String KEY_VARIABLE = "CLEARWAY_LOAD_KEY";
  static final String RESULT = "LOAD RESULT ";

  private ApiLoadMain() {}

  public static void main(String[] args) throws InterruptedException {
    Map<String, String> a = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      a.put(args[i], args[i + 1]);
    }
    String key = System.getenv(KEY_VARIABLE);
    if (key == null || key.isBlank() || !a.containsKey("--base")) {
      System.err.println("load: --base URL and " + KEY_VARIABLE + " are required");
      System.exit(2);
    }
    ApiLoad.Plan plan =
        new ApiLoad.Plan(
            Integer.parseInt(a.getOrDefault("--concurrency", "16")),
            Double.parseDouble(a.getOrDefault("--rate", "0")),
            Double.parseDouble(a.getOrDefault("--warmup", "0")),
            Double.parseDouble(a.getOrDefault("--duration", "10")),
            Double.parseDouble(a.getOrDefault("--window", "0")));
    ApiClient client = new ApiClient(URI.create(a.get("--base")), key);
    Map<String, Object> figures = new ApiLoad(client, plan).run(System.out);
    System.err.println("load: answers " + client.answers());
    System.out.println(RESULT + BenchJson.line(figures));
    System.out.flush();
    System.exit(0);
  }
}
