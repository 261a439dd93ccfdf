package dev.clearway.boot.channel;

import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.domain.MerchantChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;

/**
 * Each merchant's channel configuration as settings, {@code clearway.merchant-channels[i].*}:
 * {@code merchant}, {@code account} (a channel account id), {@code methods} (comma-separated, each
 * one the account accepts), and optionally {@code sub-merchant} (the merchant's id under a
 * platform's service-provider account, WeChat Pay's {@code sub_mchid}), {@code min-amount}, {@code
 * max-amount} (minor units) and {@code enabled} (default true). Every entry is checked before any
 * is used: an unknown key, a missing or malformed value, an account that does not exist or does not
 * accept a method, or a merchant named twice on one account refuses the whole list, naming the
 * entry and the field.
 */
public final class MerchantChannelSettings {
  public static final String PREFIX = "clearway.merchant-channels";

  private static final Set<String> KEYS =
      Set.of(
          "merchant", "account", "methods", "sub-merchant", "min-amount", "max-amount", "enabled");
  private static final Pattern MERCHANT = Pattern.compile("[A-Za-z0-9._-]{1,64}");
  private static final Pattern SUB_MERCHANT = Pattern.compile("[A-Za-z0-9_-]{1,32}");
  private static final Pattern METHOD = Pattern.compile("[a-z0-9_]{1,32}");

  private MerchantChannelSettings() {}

  /** The configured entries, checked against the channel accounts; empty when none. */
  public static List<MerchantChannel> read(Environment env, List<ChannelAccount> accounts) {
    Bindable<List<Map<String, String>>> entries =
        Bindable.of(
            ResolvableType.forClassWithGenerics(
                List.class,
                ResolvableType.forClassWithGenerics(Map.class, String.class, String.class)));
    return parse(Binder.get(env).bind(PREFIX, entries).orElse(List.of()), accounts);
  }

  /** {@link #read} over already bound entries. */
  public static List<MerchantChannel> parse(
      List<Map<String, String>> entries, List<ChannelAccount> accounts) {
    List<MerchantChannel> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < entries.size(); i++) {
      MerchantChannel channel = entry(i, entries.get(i), accounts);
      if (!seen.add(channel.merchant() + "@" + channel.channelAccountId())) {
        throw invalid(i, "merchant", "names the same merchant and account as an earlier entry");
      }
      out.add(channel);
    }
    return List.copyOf(out);
  }

  private static MerchantChannel entry(
      int i, Map<String, String> raw, List<ChannelAccount> accounts) {
    Map<String, String> entry = new HashMap<>();
    for (Map.Entry<String, String> setting : raw.entrySet()) {
      String key = canonical(setting.getKey());
      if (key == null) {
        throw invalid(
            i,
            setting.getKey(),
            "is not a setting (known: " + String.join(", ", sorted(KEYS)) + ")");
      }
      entry.put(key, setting.getValue());
    }
    String merchant = required(i, entry, "merchant");
    if (!MERCHANT.matcher(merchant).matches()) {
      throw invalid(i, "merchant", "must be 1 to 64 letters, digits, '-', '_' or '.'");
    }
    long accountId = number(i, entry, "account", true);
    ChannelAccount account =
        accounts.stream()
            .filter(a -> a.id() == accountId)
            .findFirst()
            .orElseThrow(() -> invalid(i, "account", "is not a configured channel account"));
    Set<String> methods = methods(i, required(i, entry, "methods"), account);
    String sub = entry.get("sub-merchant");
    if (sub != null && !SUB_MERCHANT.matcher(sub.strip()).matches()) {
      throw invalid(i, "sub-merchant", "must be 1 to 32 letters, digits, '-' or '_'");
    }
    Long min = optionalNumber(i, entry, "min-amount");
    Long max = optionalNumber(i, entry, "max-amount");
    if (min != null && max != null && min > max) {
      throw invalid(i, "min-amount", "is above max-amount");
    }
    return new MerchantChannel(
        merchant,
        accountId,
        sub == null ? null : sub.strip(),
        methods,
        min,
        max,
        enabled(i, entry.get("enabled")));
  }

  /** The setting a key names, in any of its relaxed forms (subMerchant, sub_merchant, ...). */
  private static String canonical(String key) {
    String bare = key.toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
    return KEYS.stream().filter(k -> k.replace("-", "").equals(bare)).findFirst().orElse(null);
  }

  private static Set<String> methods(int i, String text, ChannelAccount account) {
    Set<String> methods =
        Arrays.stream(text.split(","))
            .map(String::strip)
            .filter(m -> !m.isEmpty())
            .collect(Collectors.toCollection(LinkedHashSet::new));
    if (methods.isEmpty()) {
      throw invalid(i, "methods", "names no payment method");
    }
    for (String method : methods) {
      if (!METHOD.matcher(method).matches() || !account.paymentMethods().contains(method)) {
        throw invalid(
            i,
            "methods",
            "names a method the account does not accept (it accepts: "
                + String.join(", ", sorted(account.paymentMethods()))
                + ")");
      }
    }
    return methods;
  }

  private static boolean enabled(int i, String text) {
    if (text == null || text.strip().equalsIgnoreCase("true")) {
      return true;
    }
    if (text.strip().equalsIgnoreCase("false")) {
      return false;
    }
    throw invalid(i, "enabled", "must be true or false");
  }

  private static String required(int i, Map<String, String> entry, String key) {
    String value = entry.get(key);
    if (value == null || value.isBlank()) {
      throw invalid(i, key, "is required");
    }
    return value.strip();
  }

  private static Long optionalNumber(int i, Map<String, String> entry, String key) {
    return entry.get(key) == null ? null : number(i, entry, key, false);
  }

  private static long number(int i, Map<String, String> entry, String key, boolean zeroAllowed) {
    String text = required(i, entry, key);
    long value;
    try {
      value = Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw invalid(i, key, "must be a whole number");
    }
    if (value < 0 || (value == 0 && !zeroAllowed)) {
      throw invalid(i, key, zeroAllowed ? "must not be negative" : "must be positive");
    }
    return value;
  }

  private static List<String> sorted(Set<String> values) {
    return values.stream().sorted().toList();
  }

  private static IllegalStateException invalid(int i, String key, String why) {
    return new IllegalStateException(PREFIX + "[" + i + "]." + key + " " + why);
  }
}
