package dev.clearway.sim.psp;

import java.net.URI;
import java.util.List;

/**
 * A simulated PSP served over real HTTP on loopback, in the mode of one real PSP. One server holds
 * one channel account.
 */
public interface SimPsp extends AutoCloseable {

  /** Base URL of the PSP's API, such as {@code http://127.0.0.1:41234}. */
  URI baseUrl();

  /** The account this server simulates (Stripe account id, WeChat mchid). */
  String account();

  PspFaults faults();

  /** Read requests (retrieve, search, query) per second. */
  QueryRateMeter queries();

  /** Every payment the PSP knows of, charged or not. */
  List<PspCharge> ledger();

  /** Where webhooks go from now on; null stops sending. */
  void webhookTarget(URI target);

  @Override
  void close();
}
