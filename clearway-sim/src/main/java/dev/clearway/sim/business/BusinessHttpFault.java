package dev.clearway.sim.business;

/** What the simulated business's HTTP side does to an answer, on top of the business's faults. */
public enum BusinessHttpFault {
  NONE,
  /** The request is executed, the answer comes after the server's slow hold. */
  SLOW,
  /** Nothing is executed; a proxy's 503 page answers. */
  SERVER_ERROR,
  /** The request is executed, the answer is signed with a wrong key. */
  BAD_SIGNATURE,
  /** The request is executed, the answer is a truncated JSON body (correctly signed). */
  MALFORMED_BODY,
  /** The request is executed, the connection is dropped without an answer. */
  LOST_RESPONSE
}
