package dev.clearway.lab;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;

/** Runs one body on N named threads and waits for all of them (load drivers, chaos clients). */
public final class Parallel {
  private Parallel() {}

  /** Starts {@code threads} threads named {@code name-i}, each running {@code body(i)}; joins. */
  public static void run(int threads, String name, IntConsumer body) {
    List<Thread> started = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      int index = i;
      Thread t = new Thread(() -> body.accept(index), name + "-" + i);
      t.start();
      started.add(t);
    }
    for (Thread t : started) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
