package dev.clearway.lab.channel;

import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.port.ChannelStores;
import dev.clearway.core.channel.spi.PspAdapter;
import dev.clearway.psp.stripe.StripeAdapter;
import dev.clearway.psp.stripe.StripeConfig;
import dev.clearway.psp.wechat.WechatCredentials;
import dev.clearway.psp.wechat.WechatKeyEvents;
import dev.clearway.psp.wechat.WechatPayAdapter;
import dev.clearway.psp.wechat.WechatPayConfig;
import dev.clearway.psp.wechat.WechatPlatformKeys;
import dev.clearway.sim.psp.PspFaults;
import dev.clearway.sim.psp.SimPsp;
import dev.clearway.sim.psp.stripe.StripeSimOptions;
import dev.clearway.sim.psp.stripe.StripeSimServer;
import dev.clearway.sim.psp.stripe.StripeSimTiming;
import dev.clearway.sim.psp.wechat.PayerChoice;
import dev.clearway.sim.psp.wechat.RefundBehaviour;
import dev.clearway.sim.psp.wechat.WechatSimKeys;
import dev.clearway.sim.psp.wechat.WechatSimOptions;
import dev.clearway.sim.psp.wechat.WechatSimServer;
import java.net.URI;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Simulated channel accounts served over real HTTP on loopback, each registered as a channel
 * account with its adapter. One account per failure domain. An account is Stripe-style (channel
 * {@code stripe}, method {@code card}) unless its spec carries a {@link WechatCustomer}: then it is
 * WeChat Pay v3-style (channel {@code wechat}, method {@code wallet}), with its own RSA merchant
 * and platform keys and APIv3 key generated for this run. A Stripe-style account's API secret and
 * webhook signing secret are generated for this run too: no secret is a constant of the code.
 *
 * <p>WeChat notifications are addressed to a placeholder notify_url that nothing listens on: the
 * caller points every simulator at its receiver with {@link SimPsp#webhookTarget}, which overrides
 * every order's notify_url.
 */
public final class SimChannels implements AutoCloseable {

  private static final String WECHAT_APPID = "wx_clearway_sim";
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Map<Long, SimPsp> sims = new LinkedHashMap<>();
  private final Map<Long, PspAdapter> adapters = new LinkedHashMap<>();
  private final List<ChannelAccount> accounts = new ArrayList<>();
  private final Map<Long, WechatSimKeys> wechatKeys = new LinkedHashMap<>();
  private final WechatKeyEvents keyEvents;

  /**
   * What the simulated WeChat Pay customer does with each order, and when (USERPAYING from half of
   * the delay, then SUCCESS or PAYERROR).
   */
  public record WechatCustomer(PayerChoice payer, Duration payerDelay) {
    public WechatCustomer {
      Objects.requireNonNull(payer, "payer");
      Objects.requireNonNull(payerDelay, "payerDelay");
    }
  }

  /**
   * How one simulated account is set up; {@code wechat} null means a Stripe-style account.
   *
   * @param wechat the customer of a WeChat Pay v3-style account, or null for Stripe
   */
  public record AccountSpec(
      long id, String failureDomain, int priority, PspFaults faults, WechatCustomer wechat) {

    /** A Stripe-style account. */
    public AccountSpec(long id, String failureDomain, int priority, PspFaults faults) {
      this(id, failureDomain, priority, faults, null);
    }

    /** A WeChat Pay v3-style account whose customers behave as {@code customer} says. */
    public static AccountSpec wechat(
        long id, String failureDomain, int priority, PspFaults faults, WechatCustomer customer) {
      return new AccountSpec(
          id, failureDomain, priority, faults, Objects.requireNonNull(customer, "customer"));
    }

    public String channel() {
      return wechat == null ? "stripe" : "wechat";
    }

    public String paymentMethod() {
      return wechat == null ? "card" : "wallet";
    }
  }

  public SimChannels(
      ChannelStores store, List<AccountSpec> specs, Duration lostResponseHold, Duration timeout) {
    this(store, specs, lostResponseHold, timeout, WechatKeyEvents.none());
  }

  /**
   * The accounts, the WeChat Pay adapters reporting an unknown platform serial to {@code
   * keyEvents}.
   */
  public SimChannels(
      ChannelStores store,
      List<AccountSpec> specs,
      Duration lostResponseHold,
      Duration timeout,
      WechatKeyEvents keyEvents) {
    this.keyEvents = Objects.requireNonNull(keyEvents, "keyEvents");
    try {
      for (AccountSpec spec : specs) {
        if (spec.wechat() == null) {
          addStripe(store, spec, lostResponseHold, timeout);
        } else {
          addWechat(store, spec, lostResponseHold, timeout);
        }
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  private void addStripe(
      ChannelStores store, AccountSpec spec, Duration lostResponseHold, Duration timeout) {
    String secret = "sk_test_" + randomHex(24);
    String webhookSecret = "whsec_" + randomHex(24);
    StripeSimServer sim =
        StripeSimServer.start(
            StripeSimOptions.defaults(secret, webhookSecret)
                .withAccount("acct_sim_" + spec.id())
                .withFaults(spec.faults())
                .withTiming(
                    new StripeSimTiming(
                        lostResponseHold,
                        Duration.ofMillis(200),
                        Duration.ZERO,
                        Duration.ZERO,
                        Duration.ofMillis(200),
                        5)));
    sims.put(spec.id(), sim);
    register(store, spec, "acct_sim_" + spec.id());
    adapters.put(
        spec.id(),
        new StripeAdapter(
            StripeConfig.of(sim.baseUrl(), secret, webhookSecret)
                .withTimeouts(Duration.ofSeconds(2), timeout)));
  }

  private void addWechat(
      ChannelStores store, AccountSpec spec, Duration lostResponseHold, Duration timeout) {
    String mchid = mchid(spec.id());
    KeyPair merchant = rsa();
    KeyPair platform = rsa();
    byte[] apiV3Key = new byte[32];
    RANDOM.nextBytes(apiV3Key);
    WechatSimKeys keys =
        new WechatSimKeys(
            mchid, merchant.getPublic(), platform.getPrivate(), "PLATFORM-" + mchid, apiV3Key);
    WechatSimServer sim =
        WechatSimServer.start(
            WechatSimOptions.defaults(keys)
                .withPayer(spec.wechat().payer())
                .withPayerDelay(spec.wechat().payerDelay())
                .withRefunds(RefundBehaviour.immediateSuccess())
                // The documented 15 s ... 6 h retry schedule, in milliseconds.
                .withNotifyScheduleScale(0.001)
                .withLostResponseHold(lostResponseHold),
            spec.faults());
    sims.put(spec.id(), sim);
    register(store, spec, mchid);
    WechatCredentials credentials =
        new WechatCredentials(
            mchid,
            WECHAT_APPID,
            merchant.getPrivate(),
            "MERCHANT-" + mchid,
            WechatPlatformKeys.of("PLATFORM-" + mchid, platform.getPublic()),
            apiV3Key);
    URI notifyUrl = URI.create("http://127.0.0.1:9/wechat/notify/" + spec.id());
    adapters.put(
        spec.id(),
        new WechatPayAdapter(
            WechatPayConfig.of(sim.baseUrl(), credentials, notifyUrl, Clock.systemUTC())
                .withTimeouts(Duration.ofSeconds(2), timeout),
            keyEvents));
    wechatKeys.put(spec.id(), keys);
  }

  private void register(ChannelStores store, AccountSpec spec, String accountRef) {
    ChannelAccount account =
        new ChannelAccount(
            spec.id(),
            spec.channel(),
            accountRef,
            spec.failureDomain(),
            Set.of(spec.paymentMethod()),
            spec.priority(),
            true);
    store.accounts().upsertAccount(account);
    accounts.add(account);
  }

  /** A 10-digit merchant number per channel account id, as WeChat Pay issues them. */
  static String mchid(long accountId) {
    return String.format(java.util.Locale.ROOT, "19%08d", accountId % 100_000_000L);
  }

  private static String randomHex(int bytes) {
    byte[] raw = new byte[bytes];
    RANDOM.nextBytes(raw);
    return java.util.HexFormat.of().formatHex(raw);
  }

  private static KeyPair rsa() {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
      g.initialize(2048);
      return g.generateKeyPair();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  public PspAdapter adapter(long accountId) {
    PspAdapter adapter = adapters.get(accountId);
    if (adapter == null) {
      throw new IllegalArgumentException("no adapter for channel account " + accountId);
    }
    return adapter;
  }

  /** The merchant number of each WeChat Pay-style account, by account id. */
  public Map<Long, String> wechatMerchants() {
    Map<Long, String> out = new LinkedHashMap<>();
    wechatKeys.forEach((id, keys) -> out.put(id, keys.mchid()));
    return out;
  }

  public SimPsp sim(long accountId) {
    return sims.get(accountId);
  }

  public Map<Long, SimPsp> sims() {
    return sims;
  }

  public List<ChannelAccount> accounts() {
    return accounts;
  }

  @Override
  public void close() {
    sims.values().forEach(SimPsp::close);
  }
}
