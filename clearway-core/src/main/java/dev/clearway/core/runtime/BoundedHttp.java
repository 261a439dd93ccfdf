package dev.clearway.core.runtime;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The JDK HTTP client as the adapters to a peer (wallet, business) use it: one client per target,
 * HTTP/1.1 with its keep-alive pool, a bounded executor, and a synchronous exchange whose answer is
 * bounded in size and in time (headers and body together).
 *
 * <p>The exchange is {@link HttpClient#send synchronous} on the caller's thread: {@code sendAsync}
 * hands every completed response to {@code CompletableFuture}'s default executor, which on a
 * machine of two CPUs starts a new thread per task. The request's own timeout ends at the response
 * headers; the body is bounded by the same deadline here, and a body still incomplete at the
 * deadline is cancelled (its connection closed, never returned to the pool) and answers {@link
 * HttpTimeoutException}.
 */
public final class BoundedHttp {
  private static final Duration IDLE_THREAD = Duration.ofSeconds(30);

  private BoundedHttp() {}

  /**
   * An HTTP/1.1 client that never follows redirects, whose internal tasks run on at most {@code
   * threads} daemon threads named after {@code name} (idle ones end after 30 s).
   */
  public static HttpClient client(String name, Duration connectTimeout, int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads >= 1");
    }
    AtomicInteger count = new AtomicInteger();
    ThreadPoolExecutor executor =
        new ThreadPoolExecutor(
            threads,
            threads,
            IDLE_THREAD.toMillis(),
            TimeUnit.MILLISECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, name + "-http-" + count.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    executor.allowCoreThreadTimeOut(true);
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(connectTimeout)
        .followRedirects(HttpClient.Redirect.NEVER)
        .executor(executor)
        .build();
  }

  /** Threads for a client's executor: the number of CPUs, at least two. */
  public static int defaultThreads() {
    return Math.max(2, Runtime.getRuntime().availableProcessors());
  }

  /**
   * Sends {@code request} and reads its body within {@code budget} from now; a body declared longer
   * than {@code maxBytes} is discarded (an empty body).
   *
   * @throws HttpTimeoutException when the headers or the whole body do not arrive in time
   * @throws IOException on any other transport failure
   */
  public static HttpResponse<byte[]> exchange(
      HttpClient client, HttpRequest request, long maxBytes, Duration budget)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + budget.toNanos();
    HttpResponse.BodyHandler<byte[]> handler =
        info ->
            new Deadline<>(
                info.headers().firstValueAsLong("Content-Length").orElse(0) > maxBytes
                    ? HttpResponse.BodySubscribers.replacing(new byte[0])
                    : HttpResponse.BodySubscribers.ofByteArray(),
                deadline);
    return client.send(request, handler);
  }

  /** A body that completes by the deadline or fails with a timeout and cancels its reading. */
  private static final class Deadline<T> implements HttpResponse.BodySubscriber<T> {
    private final HttpResponse.BodySubscriber<T> inner;
    private final CompletableFuture<T> body = new CompletableFuture<>();
    private volatile Flow.Subscription subscription;

    Deadline(HttpResponse.BodySubscriber<T> inner, long deadlineNanos) {
      this.inner = inner;
      inner
          .getBody()
          .whenComplete(
              (value, failure) -> {
                if (failure != null) {
                  body.completeExceptionally(failure);
                } else {
                  body.complete(value);
                }
              });
      // orTimeout runs on CompletableFuture's one timer thread and is cancelled on completion.
      CompletableFuture<Void> timer = new CompletableFuture<>();
      timer
          .orTimeout(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS)
          .whenComplete((v, expired) -> onTimer(expired != null));
      body.whenComplete((v, t) -> timer.complete(null));
    }

    private void onTimer(boolean expired) {
      if (expired
          && body.completeExceptionally(new HttpTimeoutException("body not read in time"))) {
        Flow.Subscription s = subscription;
        if (s != null) {
          s.cancel();
        }
      }
    }

    @Override
    public CompletionStage<T> getBody() {
      return body;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
      subscription = s;
      inner.onSubscribe(s);
      if (body.isCompletedExceptionally() && !inner.getBody().toCompletableFuture().isDone()) {
        s.cancel();
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
}
