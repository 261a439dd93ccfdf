package dev.clearway.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No main code runs work on the common ForkJoinPool: every asynchronous CompletableFuture step
 * names its executor (a bounded pool of its own), and there are no parallel streams. A blocking
 * call (a wallet query, a database write) on the common pool competes with everything else in the
 * JVM that uses it, has no bound of its own and is lost silently when it throws.
 */
class NoCommonPoolTest {
  /** The CompletableFuture methods that run on the common pool at this many arguments. */
  private static final Map<String, Integer> WITHOUT_EXECUTOR =
      Map.ofEntries(
          Map.entry("runAsync", 1),
          Map.entry("supplyAsync", 1),
          Map.entry("thenApplyAsync", 1),
          Map.entry("thenAcceptAsync", 1),
          Map.entry("thenRunAsync", 1),
          Map.entry("thenComposeAsync", 1),
          Map.entry("whenCompleteAsync", 1),
          Map.entry("handleAsync", 1),
          Map.entry("exceptionallyAsync", 1),
          Map.entry("exceptionallyComposeAsync", 1),
          Map.entry("thenCombineAsync", 2),
          Map.entry("thenAcceptBothAsync", 2),
          Map.entry("runAfterBothAsync", 2),
          Map.entry("applyToEitherAsync", 2),
          Map.entry("acceptEitherAsync", 2),
          Map.entry("runAfterEitherAsync", 2));

  private static final Pattern ASYNC = Pattern.compile("\\.(\\w+Async)\\s*\\(");
  private static final Pattern PARALLEL =
      Pattern.compile("\\.parallelStream\\s*\\(|\\.parallel\\s*\\(\\s*\\)|commonPool\\s*\\(");

  @Test
  void mainCodeNeverRunsOnTheCommonPool() throws IOException {
    List<String> found = new ArrayList<>();
    List<Path> sources = mainSources();
    for (Path file : sources) {
      String code = withoutComments(Files.readString(file));
      Matcher async = ASYNC.matcher(code);
      while (async.find()) {
        Integer arity = WITHOUT_EXECUTOR.get(async.group(1));
        if (arity != null && arguments(code, async.end()) == arity) {
          found.add(file + ": " + async.group(1) + " without an executor");
        }
      }
      Matcher parallel = PARALLEL.matcher(code);
      while (parallel.find()) {
        found.add(file + ": " + parallel.group().trim());
      }
    }
    assertThat(sources).as("main sources found").hasSizeGreaterThan(100);
    assertThat(found).isEmpty();
  }

  @Test
  void theCheckSeesACallWithoutAnExecutor() {
    String code = "CompletableFuture.runAsync(() -> service.check(id, (a, b) -> a));";
    Matcher m = ASYNC.matcher(code);
    assertThat(m.find()).isTrue();
    assertThat(arguments(code, m.end())).isEqualTo(1);
    assertThat(withoutComments("x(); // CompletableFuture.runAsync(a)\n/* b.parallel() */ \"//\""))
        .doesNotContain("runAsync")
        .doesNotContain("parallel")
        .contains("\"//\"");
    String bounded = "CompletableFuture.supplyAsync(() -> f(a, b), executor)";
    Matcher n = ASYNC.matcher(bounded);
    assertThat(n.find()).isTrue();
    assertThat(arguments(bounded, n.end())).isEqualTo(2);
  }

  private static List<Path> mainSources() throws IOException {
    Path root = Path.of("..").toAbsolutePath().normalize();
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(p -> p.toString().endsWith(".java"))
          .filter(p -> p.toString().contains("/src/main/java/"))
          .filter(p -> !p.toString().contains("/target/"))
          .toList();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /** Top-level arguments of the call whose opening parenthesis ends at {@code from}. */
  static int arguments(String code, int from) {
    int depth = 0;
    int commas = 0;
    boolean any = false;
    for (int i = from; i < code.length(); i++) {
      char c = code.charAt(i);
      if (c == '"' || c == '\'') {
        i = skipLiteral(code, i, c);
        any = true;
      } else if (c == '(' || c == '{' || c == '[') {
        depth++;
        any = true;
      } else if (c == ')' || c == '}' || c == ']') {
        if (depth == 0) {
          return any ? commas + 1 : 0;
        }
        depth--;
      } else if (c == ',' && depth == 0) {
        commas++;
      } else if (!Character.isWhitespace(c)) {
        any = true;
      }
    }
    throw new IllegalArgumentException("unbalanced call at " + from);
  }

  private static int skipLiteral(String code, int start, char quote) {
    for (int i = start + 1; i < code.length(); i++) {
      char c = code.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == quote) {
        return i;
      }
    }
    return code.length();
  }

  /** The code with comments blanked out; string, character and text-block literals kept. */
  static String withoutComments(String code) {
    StringBuilder out = new StringBuilder(code);
    int i = 0;
    while (i < code.length()) {
      if (code.startsWith("\"\"\"", i)) {
        int end = code.indexOf("\"\"\"", i + 3);
        i = end < 0 ? code.length() : end + 3;
      } else if (code.charAt(i) == '"' || code.charAt(i) == '\'') {
        i = skipLiteral(code, i, code.charAt(i)) + 1;
      } else if (code.startsWith("//", i)) {
        int end = code.indexOf('\n', i);
        end = end < 0 ? code.length() : end;
        blank(out, i, end);
        i = end;
      } else if (code.startsWith("/*", i)) {
        int end = code.indexOf("*/", i + 2);
        end = end < 0 ? code.length() : end + 2;
        blank(out, i, end);
        i = end;
      } else {
        i++;
      }
    }
    return out.toString();
  }

  private static void blank(StringBuilder out, int from, int to) {
    for (int k = from; k < to; k++) {
      if (out.charAt(k) != '\n') {
        out.setCharAt(k, ' ');
      }
    }
  }
}
