package dev.clearway.service.reconciliation;

import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;

/**
 * Reads the accounts' reconciliation terms from configuration: {@code
 * clearway.reconciliation.defaults.<name>} and {@code
 * clearway.reconciliation.accounts.<ref>.<name>}, where a name is {@code settlement-window} (e.g.
 * {@code 48h}), {@code fee-rate-ppm}, {@code fixed-fee-minor}, {@code currency}, {@code zone} (e.g.
 * {@code Asia/Shanghai}) or {@code available-at} (e.g. {@code 10:00}). The account reference is
 * everything between {@code accounts.} and the name, exactly as written (dots and underscores
 * included). A value that does not parse stops the start, naming the property (never its value).
 */
final class AccountTermsProperties {
  private static final String PREFIX = "clearway.reconciliation";
  private static final String DEFAULTS = PREFIX + ".defaults.";
  private static final String ACCOUNTS = PREFIX + ".accounts.";
  private static final List<String> NAMES =
      List.of(
          "settlement-window",
          "fee-rate-ppm",
          "fixed-fee-minor",
          "currency",
          "zone",
          "available-at");

  private AccountTermsProperties() {}

  static ConfiguredAccountTerms read(ConfigurableEnvironment environment) {
    Map<String, String> defaults = new LinkedHashMap<>();
    Map<String, Map<String, String>> accounts = new TreeMap<>();
    for (PropertySource<?> source : environment.getPropertySources()) {
      if (source instanceof EnumerablePropertySource<?> names) {
        for (String property : names.getPropertyNames()) {
          collect(environment, property, defaults, accounts);
        }
      }
    }
    Map<String, ConfiguredAccountTerms.Settings> configured = new LinkedHashMap<>();
    accounts.forEach((ref, values) -> configured.put(ref, settings(ACCOUNTS + ref, values)));
    return new ConfiguredAccountTerms(settings(PREFIX + ".defaults", defaults), configured);
  }

  /** Files one property under its account or the defaults; other properties are ignored. */
  private static void collect(
      Environment environment,
      String property,
      Map<String, String> defaults,
      Map<String, Map<String, String>> accounts) {
    for (String name : NAMES) {
      if (property.equals(DEFAULTS + name)) {
        defaults.put(name, environment.getProperty(property));
      } else if (property.startsWith(ACCOUNTS)
          && property.endsWith("." + name)
          && property.length() > ACCOUNTS.length() + name.length() + 1) {
        String ref = property.substring(ACCOUNTS.length(), property.length() - name.length() - 1);
        accounts
            .computeIfAbsent(ref, r -> new LinkedHashMap<>())
            .put(name, environment.getProperty(property));
      }
    }
  }

  static ConfiguredAccountTerms.Settings settings(String where, Map<String, String> values) {
    return new ConfiguredAccountTerms.Settings(
        parse(where, "settlement-window", values, DurationStyle::detectAndParse),
        parse(where, "fee-rate-ppm", values, Long::valueOf),
        parse(where, "fixed-fee-minor", values, Long::valueOf),
        parse(where, "currency", values, s -> s),
        parse(where, "zone", values, ZoneId::of),
        parse(where, "available-at", values, LocalTime::parse));
  }

  private static <T> T parse(
      String where, String name, Map<String, String> values, Function<String, T> f) {
    String value = values.get(name);
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      return f.apply(value.strip());
    } catch (RuntimeException e) {
      throw new IllegalStateException(where + "." + name + " is not valid", e);
    }
  }

  /** An interval of the daily run ({@code clearway.reconciliation.<name>}), or its default. */
  static Duration duration(Environment environment, String name, String fallback) {
    String value = environment.getProperty(PREFIX + "." + name, fallback);
    try {
      return DurationStyle.detectAndParse(value);
    } catch (RuntimeException e) {
      throw new IllegalStateException(PREFIX + "." + name + " is not valid", e);
    }
  }
}
