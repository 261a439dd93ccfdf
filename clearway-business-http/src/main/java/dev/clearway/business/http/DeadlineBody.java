package dev.clearway.business.http;

import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;

/**
 * A response body of at most {@code maxBytes} (a larger announced body is read as empty, hence
 * unreadable) that must arrive by the call's deadline: past it the body fails with a timeout and
 * its connection is dropped. It lets the caller wait in its own thread ({@code HttpClient.send})
 * with the whole answer bounded, where waiting on {@code sendAsync} with a timeout costs a thread
 * hand-off per call (and, where the common pool has a single thread, a new thread per call).
 */
final class DeadlineBody implements HttpResponse.BodySubscriber<byte[]> {
  private final HttpResponse.BodySubscriber<byte[]> inner;
  private final CompletableFuture<byte[]> body = new CompletableFuture<>();
  private volatile Flow.Subscription upstream;

  private DeadlineBody(HttpResponse.BodySubscriber<byte[]> inner, long deadlineNanos) {
    this.inner = inner;
    inner.getBody().whenComplete(this::innerDone);
    // The timer is cancelled as soon as the body completes: no thread runs for a body in time.
    CompletableFuture<Void> timer = new CompletableFuture<>();
    body.whenComplete((b, t) -> timer.complete(null));
    timer
        .orTimeout(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS)
        .whenComplete((v, late) -> expire(late));
  }

  /** The handler of one call whose whole answer is due by {@code deadlineNanos} (nanoTime). */
  static HttpResponse.BodyHandler<byte[]> handler(long maxBytes, long deadlineNanos) {
    return info ->
        new DeadlineBody(
            info.headers().firstValueAsLong("Content-Length").orElse(0) > maxBytes
                ? HttpResponse.BodySubscribers.replacing(new byte[0])
                : HttpResponse.BodySubscribers.ofByteArray(),
            deadlineNanos);
  }

  private void innerDone(byte[] b, Throwable t) {
    if (t != null) {
      body.completeExceptionally(t);
    } else {
      body.complete(b);
    }
  }

  private void expire(Throwable late) {
    if (late == null || body.isDone()) {
      return;
    }
    body.completeExceptionally(new HttpTimeoutException("the answer's body did not arrive in time"));
    Flow.Subscription s = upstream;
    if (s != null) {
      s.cancel();
    }
  }

  @Override
  public CompletionStage<byte[]> getBody() {
    return body;
  }

  @Override
  public void onSubscribe(Flow.Subscription subscription) {
    upstream = subscription;
    inner.onSubscribe(subscription);
    if (body.isCompletedExceptionally()) {
      subscription.cancel();
    }
  }

  @Override
  public void onNext(List<ByteBuffer> item) {
    inner.onNext(item);
  }

  @Override
  public void onError(Throwable throwable) {
    inner.onError(throwable);
  }

  @Override
  public void onComplete() {
    inner.onComplete();
  }
}
