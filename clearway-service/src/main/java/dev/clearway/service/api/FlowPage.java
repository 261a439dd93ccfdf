package dev.clearway.service.api;

import dev.clearway.core.flow.domain.PayFlow;
import java.util.List;

/**
 * One page of flows, newest first; {@code nextCursor} is null on the last page, otherwise the
 * {@code cursor} parameter that fetches the next one.
 */
public record FlowPage(List<FlowView> flows, String nextCursor) {

  /** The page of {@code size} rows out of {@code rows}, read with one row more than a page. */
  static FlowPage of(List<PayFlow> rows, int size) {
    boolean more = rows.size() > size;
    List<PayFlow> page = more ? rows.subList(0, size) : rows;
    String next = page.isEmpty() ? null : PageCursor.after(page.get(page.size() - 1).id(), more);
    return new FlowPage(page.stream().map(FlowView::of).toList(), next);
  }
}
