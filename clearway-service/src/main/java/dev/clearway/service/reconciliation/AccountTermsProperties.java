package dev.clearway.service.reconciliation;

import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * Reads the accounts' reconciliation terms from configuration: {@code
 * clearway.reconciliation.defaults.<name>} and {@code
 * clearway.reconciliation.accounts.<ref>.<name>}, where a name is {@code settlement-window} (e.g.
 * {@code 48h}), {@code fee-rate-ppm}, {@code fixed-fee-minor}, {@code currency}, {@code zone} (e.g.
 * {@code Asia/Shanghai}) or {@code available-at} (e.g. {@code 10:00}). A value that does not parse
 * stops the start, naming the property (never its value).
 */
final class AccountTermsProperties {
  private static final String PREFIX = "clearway.reconciliation";

  private AccountTermsProperties() {}

  static ConfiguredAccountTerms read(Environment environment) {
    Binder binder = Binder.get(environment);
    Map<String, String> defaults =
        binder.bind(PREFIX + ".defaults", Bindable.mapOf(String.class, String.class)).orElse(Map.of());
    Map<String, Map<String, String>> accounts =
        binder
            .bind(PREFIX + ".accounts", Bindable.mapOf(String.class, Map.class))
            .map(AccountTermsProperties::castAccounts)
            .orElse(Map.of());
    Map<String, ConfiguredAccountTerms.Settings> configured = new LinkedHashMap<>();
    accounts.forEach((ref, values) -> configured.put(ref, settings(PREFIX + ".accounts." + ref, values)));
    return new ConfiguredAccountTerms(settings(PREFIX + ".defaults", defaults), configured);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Map<String, Map<String, String>> castAccounts(Map<String, Map> raw) {
    Map<String, Map<String, String>> out = new LinkedHashMap<>();
    raw.forEach(
        (ref, values) -> {
          Map<String, String> strings = new LinkedHashMap<>();
          ((Map<Object, Object>) values).forEach((k, v) -> strings.put(String.valueOf(k), String.valueOf(v)));
          out.put(ref, strings);
        });
    return out;
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
      String where, String name, Map<String, String> values, java.util.function.Function<String, T> f) {
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

  /** The interval properties of the daily run, with their defaults. */
  static Duration duration(Environment environment, String name, String fallback) {
    String value = environment.getProperty(PREFIX + "." + name, fallback);
    try {
      return DurationStyle.detectAndParse(value);
    } catch (RuntimeException e) {
      throw new IllegalStateException(PREFIX + "." + name + " is not valid", e);
    }
  }
}
