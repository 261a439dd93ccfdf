package dev.clearway.core.channel.spi;

/**
 * How certain the money outcome of one PSP call is. Every adapter answer carries exactly one.
 *
 * <p>Connection refused, DNS failure, a 5xx page, a proxy error, a read timeout: all {@link
 * #UNKNOWN} unless the adapter can prove that the PSP did not execute the request.
 */
public enum ResultCertainty {
  /** Proven not to have reached the PSP (local validation, refused before sending). */
  NO_SIDE_EFFECT,
  /** The PSP definitely refused and its protocol proves the request was not accepted. */
  DEFINITE_FAILURE,
  /** The PSP accepted and is processing, or waits for the customer. */
  PENDING,
  /** The PSP says the money moved (response, authentic webhook, authoritative query). */
  CONFIRMED_SUCCESS,
  /** Nobody can tell: recover the same attempt, never fail over. */
  UNKNOWN;

  /** Whether this answer ends the attempt. */
  public boolean isFinal() {
    return switch (this) {
      case NO_SIDE_EFFECT, DEFINITE_FAILURE, CONFIRMED_SUCCESS -> true;
      case PENDING, UNKNOWN -> false;
    };
  }
}
