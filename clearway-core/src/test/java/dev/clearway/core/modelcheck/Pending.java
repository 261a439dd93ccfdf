package dev.clearway.core.modelcheck;

import java.util.List;

/** The port call a worker is blocked on: the explorer decides when it runs and what it answers. */
public record Pending(String port, String method, List<Object> args) {

  public String call() {
    return port + "." + method;
  }

  public Object arg(int i) {
    return args.get(i);
  }
}
