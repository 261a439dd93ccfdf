package dev.clearway.service.api;

import dev.clearway.core.review.PersonNames;
import java.util.regex.Pattern;

/**
 * The optional {@code merchant} parameter of an ops list: a merchant's name as its key names it
 * (letters, digits, {@code -}, {@code _}, {@code .}, 1 to 64 characters), compared in the one
 * spelling merchant ids are stored in (trimmed, lower-case). Anything else is 400 {@code
 * invalid_parameter}.
 */
public final class MerchantFilter {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  private MerchantFilter() {}

  /** The merchant id to filter by, or null for every merchant. */
  public static String of(String merchant) {
    if (merchant == null || merchant.isEmpty()) {
      return null;
    }
    String name = merchant.strip();
    if (!NAME.matcher(name).matches()) {
      throw ApiException.badRequest(
          "invalid_parameter", "merchant must be 1 to 64 letters, digits, '-', '_' or '.'");
    }
    return PersonNames.normalise(name);
  }
}
