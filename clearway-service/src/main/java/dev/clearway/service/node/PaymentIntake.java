package dev.clearway.service.node;

import dev.clearway.service.api.ApiException;
import org.springframework.http.HttpStatus;

/**
 * Admits a new payment or refuses it before anything is written: {@code 503 shutting_down} while
 * this node stops, {@code 503 intake_closed} while operators have closed intake for all nodes. Only
 * new payments pass here; everything on existing flows goes on.
 */
public final class PaymentIntake {
  private final ShutdownGate shutdown;
  private final IntakeSwitch intake;

  public PaymentIntake(ShutdownGate shutdown, IntakeSwitch intake) {
    this.shutdown = shutdown;
    this.intake = intake;
  }

  /** An intake that admits everything (tests and embeddings without a database switch). */
  public static PaymentIntake open() {
    return new PaymentIntake(null, null);
  }

  /** The pass of an admitted request; close it when the request is answered. */
  public ShutdownGate.Pass admit() {
    ShutdownGate.Pass pass = shutdown == null ? () -> {} : shutdown.enter();
    if (pass == null) {
      throw new ApiException(
          HttpStatus.SERVICE_UNAVAILABLE,
          "shutting_down",
          "this node is shutting down; send the request to another node");
    }
    if (intake != null && !intake.current().open()) {
      pass.close();
      throw new ApiException(
          HttpStatus.SERVICE_UNAVAILABLE,
          "intake_closed",
          "new payments are not accepted now; existing payments go on");
    }
    return pass;
  }
}
