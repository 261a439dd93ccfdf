package dev.clearway.psp.wechat;

import tools.jackson.databind.JsonNode;

/**
 * What one call to WeChat Pay produced: either an authentic answer (platform signature verified) or
 * a {@code failure} that says nothing about whether the PSP executed.
 *
 * @param failure null for an authentic answer; otherwise {@code TIMEOUT}, {@code IO_ERROR}, {@code
 *     INTERRUPTED}, {@code BAD_SIGNATURE} or {@code UNKNOWN_PLATFORM_SERIAL} (signed with a key not
 *     configured)
 * @param json the parsed body, or null when empty or not JSON
 * @param rawHash SHA-256 hex of the raw body, null when no body arrived
 */
record WechatReply(String failure, int status, JsonNode json, String requestId, String rawHash) {

  static WechatReply failed(String failure) {
    return new WechatReply(failure, 0, null, null, null);
  }

  boolean authentic() {
    return failure == null;
  }

  /** The error {@code code} of an error body, or null. */
  String code() {
    return text("code");
  }

  String text(String field) {
    if (json == null) {
      return null;
    }
    JsonNode node = json.path(field);
    return node.isString() ? node.stringValue() : null;
  }
}
