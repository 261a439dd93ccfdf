package dev.clearway.psp.wechat;

import dev.clearway.core.channel.spi.RefundOutcome.RefundState;

/** WeChat Pay's refund {@code status} values. */
enum RefundStatus {
  SUCCESS,
  PROCESSING,
  ABNORMAL,
  CLOSED;

  /** The status named {@code word}, or null for a word this adapter does not know. */
  static RefundStatus parse(String word) {
    if (word == null) {
      return null;
    }
    for (RefundStatus s : values()) {
      if (s.name().equals(word)) {
        return s;
      }
    }
    return null;
  }

  RefundState state() {
    return switch (this) {
      case SUCCESS -> RefundState.SUCCEEDED;
      case PROCESSING -> RefundState.PROCESSING;
      case ABNORMAL -> RefundState.ABNORMAL;
      case CLOSED -> RefundState.CLOSED;
    };
  }
}
