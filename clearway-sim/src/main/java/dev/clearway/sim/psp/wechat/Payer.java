package dev.clearway.sim.psp.wechat;

/** What the simulated customer does with a native order's QR code. */
public enum Payer {
  /** Scans and pays: the order goes USERPAYING briefly, then SUCCESS. */
  PAYS,
  /** Scans and the payment fails: the order goes USERPAYING briefly, then PAYERROR. */
  FAILS,
  /** Never scans: the order stays NOTPAY until it is closed. */
  NEVER
}
