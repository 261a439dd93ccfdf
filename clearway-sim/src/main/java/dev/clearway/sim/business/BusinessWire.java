package dev.clearway.sim.business;

/**
 * The business contract as the simulated business serves it (docs/business-contract.md): its own
 * copy, written apart from the engine's client so that the two meet only on the wire.
 *
 * <pre>
 * POST /v1/fulfilments   {merchant, userId, scene, bizKey, tradeOrderNo, deadline}
 * POST /v1/goals/fact    {merchant, userId, scene, bizKey}
 * GET  /sim/ledger       every grant, for checks (not part of the contract)
 * </pre>
 */
final class BusinessWire {
  static final String FULFILMENTS = "/v1/fulfilments";
  static final String FACT = "/v1/goals/fact";
  static final String LEDGER = "/sim/ledger";

  static final String SIGNATURE_HEADER = "Clearway-Signature";
  static final String REQUEST_ID_HEADER = "Clearway-Request-Id";
  static final String JSON = "application/json; charset=utf-8";

  static final String DONE = "DONE";
  static final String ACCEPTED = "ACCEPTED";
  static final String REJECTED = "REJECTED";
  static final String NOT_DONE = "NOT_DONE";
  static final String DEADLINE_PASSED = "DEADLINE_PASSED";

  static final String INVALID_REQUEST = "INVALID_REQUEST";
  static final String UNAUTHORIZED = "UNAUTHORIZED";
  static final String NO_SUCH_ROUTE = "NO_SUCH_ROUTE";
  static final String METHOD_NOT_ALLOWED = "METHOD_NOT_ALLOWED";

  static final int MAX_BODY_BYTES = 64 * 1024;

  private BusinessWire() {}
}
