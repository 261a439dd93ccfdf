package dev.clearway.sim.psp.wechat;

/**
 * An error answer of the simulated PSP: {@code {"code":..,"message":..}} with an HTTP status. Its
 * message never contains keys, signatures or request bodies.
 */
final class WechatApiError extends Exception {
  private static final long serialVersionUID = 1L;
  private final int status;
  private final String code;

  WechatApiError(int status, String code, String message) {
    super(message, null, false, false);
    this.status = status;
    this.code = code;
  }

  int status() {
    return status;
  }

  String code() {
    return code;
  }
}
