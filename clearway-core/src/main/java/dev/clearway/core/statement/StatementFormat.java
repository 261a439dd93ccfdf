package dev.clearway.core.statement;

import java.util.Locale;

/** The layouts of the daily statements Clearway reads. */
public enum StatementFormat {
  /** The simulated wallet's CSV: {@code kind,order_no,trade_order_no,amount,currency,at}. */
  WALLET_CSV("wallet-csv"),
  /** Stripe's balance-transactions report CSV. */
  STRIPE_BALANCE("stripe-balance"),
  /** WeChat Pay's trade bill, every field prefixed by a backtick, with a summary. */
  WECHAT_TRADEBILL("wechat-tradebill");

  private final String code;

  StatementFormat(String code) {
    this.code = code;
  }

  /** The name used on the command line and in the {@code statement_file.format} column. */
  public String code() {
    return code;
  }

  public static StatementFormat fromCode(String code) {
    for (StatementFormat f : values()) {
      if (f.code.equals(code.toLowerCase(Locale.ROOT))) {
        return f;
      }
    }
    throw new IllegalArgumentException("unknown statement format: " + code);
  }
}
