package dev.clearway.core.statement;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * A file's SHA-256 (lower-case hex), computed on a thread of its own from the moment the file is
 * handed over, so that parsing and storing the lines need not wait for it: {@link #hex()} waits
 * only when the hash is asked for. Hashing a large file in a JVM still cold takes as long as a good
 * part of its parse (0.7 s for 11 MB on a first call).
 */
public final class FileHash {
  private final FutureTask<String> task;

  private FileHash(FutureTask<String> task) {
    this.task = task;
  }

  /** Starts hashing {@code bytes} (which must not change afterwards). */
  public static FileHash sha256Of(byte[] bytes) {
    FutureTask<String> task = new FutureTask<>(() -> digest("SHA-256", bytes));
    Thread t = new Thread(task, "statement-sha256");
    t.setDaemon(true);
    t.start();
    return new FileHash(task);
  }

  /** A hash already known. */
  public static FileHash known(String hex) {
    FutureTask<String> task = new FutureTask<>(() -> hex);
    task.run();
    return new FileHash(task);
  }

  /** The hash, waiting for it if it is still being computed. */
  public String hex() {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return task.get();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } catch (ExecutionException e) {
      throw new IllegalStateException("hashing the statement file", e.getCause());
    } catch (CancellationException e) {
      throw new IllegalStateException("hashing the statement file", e);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  static String digest(String algorithm, byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(algorithm, e);
    }
  }
}
