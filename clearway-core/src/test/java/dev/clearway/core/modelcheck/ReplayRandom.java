package dev.clearway.core.modelcheck;

import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.SecureRandomSpi;
import java.security.Security;

/**
 * Randomness that is the same at every replay of a worker. A worker's program is replayed from its
 * start at every step, and everything it does must follow from its recorded answers; but {@link
 * dev.clearway.core.runtime.TokenMint} draws a random nonce for every mint, so each replay would
 * mint other lease tokens than the ones the rows hold. While a replay runs on a thread (and only
 * then), {@code new SecureRandom()} yields zeros: a worker's tokens become a function of its run id
 * and their count ({@code W1#2/0/1}), which is all the model needs, since no two runs share a run
 * id. Outside a replay it is the platform's own generator, so nothing else in the JVM is affected.
 *
 * <p>The production code is not changed for this: the switch is a security provider, installed
 * first, whose default {@code SecureRandom} delegates to the platform's DRBG.
 */
public final class ReplayRandom {
  private static final String NAME = "ClearwayModelCheckReplay";
  private static final ThreadLocal<Boolean> REPLAYING = ThreadLocal.withInitial(() -> false);

  private ReplayRandom() {}

  /** Installs the provider once per JVM; idempotent. */
  public static synchronized void install() {
    if (Security.getProvider(NAME) == null) {
      Security.insertProviderAt(new ReplayProvider(), 1);
    }
  }

  /** Runs {@code work} with replay randomness on this thread. */
  static void replaying(Runnable work) {
    install();
    boolean outer = REPLAYING.get();
    REPLAYING.set(true);
    try {
      work.run();
    } finally {
      REPLAYING.set(outer);
    }
  }

  private static final class ReplayProvider extends Provider {
    private static final long serialVersionUID = 1L;

    ReplayProvider() {
      super(NAME, "1", "replayable SecureRandom for the model checker");
      putService(new Service(this, "SecureRandom", "Replay", Spi.class.getName(), null, null));
    }
  }

  /** Zeros during a replay; the platform's DRBG otherwise. */
  public static final class Spi extends SecureRandomSpi {
    private static final long serialVersionUID = 1L;
    private final SecureRandom platform;

    public Spi() {
      try {
        platform = SecureRandom.getInstance("DRBG", "SUN");
      } catch (NoSuchAlgorithmException | java.security.NoSuchProviderException e) {
        throw new IllegalStateException("the platform has no DRBG", e);
      }
    }

    @Override
    protected void engineSetSeed(byte[] seed) {
      platform.setSeed(seed);
    }

    @Override
    protected void engineNextBytes(byte[] bytes) {
      if (REPLAYING.get()) {
        java.util.Arrays.fill(bytes, (byte) 0);
      } else {
        platform.nextBytes(bytes);
      }
    }

    @Override
    protected byte[] engineGenerateSeed(int numBytes) {
      return platform.generateSeed(numBytes);
    }
  }
}
