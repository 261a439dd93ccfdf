package dev.clearway.service.server;

import dev.clearway.service.api.ApiKeys;
import dev.clearway.service.api.Role;
import java.io.Console;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What {@code serve} says about keys it generated because none were configured. They are for a demo
 * and this run only; they are shown only when the output is a terminal a person reads, never into a
 * redirected output, a log file or a log line.
 */
public final class GeneratedKeysNotice {
  private GeneratedKeysNotice() {}

  /** True when {@code out} is this process's standard output and that is a terminal. */
  public static boolean isTerminal(PrintStream out) {
    if (out != System.out) {
      return false;
    }
    Console console = System.console();
    if (console == null) {
      return false;
    }
    try {
      // From Java 22 a console exists even when redirected; isTerminal() tells them apart.
      Object terminal = Console.class.getMethod("isTerminal").invoke(console);
      return Boolean.TRUE.equals(terminal);
    } catch (ReflectiveOperationException olderJava) {
      return true;
    }
  }

  /** Prints the generated keys on a terminal, or only that they exist elsewhere. */
  public static void print(ApiKeys keys, PrintStream out, boolean terminal) {
    Map<Role, List<String>> generated = keys.generatedKeys();
    if (generated.isEmpty()) {
      return;
    }
    String roles = generated.keySet().stream().map(Role::label).collect(Collectors.joining(", "));
    String variables =
        generated.keySet().stream().map(Role::variable).collect(Collectors.joining(", "));
    if (!terminal) {
      out.printf(
          "No %s keys configured: keys were generated for this run and are not shown, because"
              + " the output is not a terminal. Set %s to use the service.%n",
          roles, variables);
      return;
    }
    out.println("*****************************************************************************");
    out.println("*  DEMO KEYS: no " + roles + " keys configured.");
    out.println("*  These keys were generated for this run only and are shown once, here.");
    out.println("*  They are for a demo: configure " + variables + " for real use.");
    for (Map.Entry<Role, List<String>> e : generated.entrySet()) {
      for (String key : e.getValue()) {
        out.printf("*  generated %s key: %s%n", e.getKey().label(), key);
      }
    }
    out.println("*****************************************************************************");
  }
}
