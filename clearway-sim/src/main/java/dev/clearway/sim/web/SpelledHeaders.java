package dev.clearway.sim.web;

import com.sun.net.httpserver.Headers;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Response headers that remember how the handler spelled each name, so that the wire carries the
 * counterpart's exact spelling ({@code Wechatpay-Timestamp}, {@code Request-ID}) rather than the
 * JDK's normalised one ({@code Wechatpay-timestamp}, {@code Request-id}). Lookups stay
 * case-insensitive, as in {@link Headers}.
 */
final class SpelledHeaders extends Headers {
  private final Map<String, String> spellings = new ConcurrentHashMap<>();

  @Override
  public List<String> put(String key, List<String> value) {
    remember(key);
    return super.put(key, value);
  }

  @Override
  public void add(String key, String value) {
    remember(key);
    super.add(key, value);
  }

  @Override
  public void set(String key, String value) {
    remember(key);
    super.set(key, value);
  }

  /** The name as the handler last wrote it; the stored name when it never did. */
  String spelled(String storedKey) {
    return spellings.getOrDefault(storedKey.toLowerCase(Locale.ROOT), storedKey);
  }

  private void remember(String key) {
    if (key != null) {
      spellings.put(key.toLowerCase(Locale.ROOT), key);
    }
  }
}
