package dev.clearway.lab.serve;

import dev.clearway.psp.wechat.WechatKeyEvents;
import java.util.ArrayList;
import java.util.List;

/**
 * The WeChat Pay adapters of {@code serve --channels} are built before the service and its meter
 * registry: they report to this relay, which hands every event to the target once it is bound,
 * those reported before included.
 */
final class WechatKeyEventsRelay implements WechatKeyEvents {
  private final List<String[]> early = new ArrayList<>();
  private WechatKeyEvents target;

  @Override
  public void unknownSerial(String mchid, String kind) {
    WechatKeyEvents to;
    synchronized (this) {
      if (target == null) {
        early.add(new String[] {mchid, kind});
        return;
      }
      to = target;
    }
    to.unknownSerial(mchid, kind);
  }

  /** From now on events go to {@code to}; the early ones are handed over first. */
  synchronized void bind(WechatKeyEvents to) {
    for (String[] event : early) {
      to.unknownSerial(event[0], event[1]);
    }
    early.clear();
    target = to;
  }
}
