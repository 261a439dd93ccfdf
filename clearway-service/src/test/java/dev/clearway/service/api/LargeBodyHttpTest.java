package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The 64 KiB body limit holds for every method and content type before anything reads the body: a
 * 10 MiB form-encoded PUT streamed chunked (the form filter of Spring MVC would parse such a body
 * whole) is answered 413 {@code body_too_large} while the client has sent only a little more than
 * the limit, so nothing in the server read the body to its end.
 */
class LargeBodyHttpTest {
  private static final int TOTAL = 10 * 1024 * 1024;
  private static final int CHUNK = 8 * 1024;

  /** The client pauses here until the server answers: the limit plus two chunks. */
  private static final int GATE = BodyLimitFilter.LIMIT + 2 * CHUNK;

  private static RunningApi api;

  @BeforeAll
  static void start() {
    api = RunningApi.start();
  }

  @AfterAll
  static void stop() {
    if (api != null) {
      api.close();
    }
  }

  @Test
  void aTenMebibyteChunkedFormPutIsRefusedAfterTheLimitWithoutReadingTheRest() throws Exception {
    URI base = URI.create(api.baseUrl());
    try (Socket socket = new Socket(base.getHost(), base.getPort())) {
      socket.setSoTimeout(30_000);
      CountDownLatch answered = new CountDownLatch(1);
      ByteArrayOutputStream response = new ByteArrayOutputStream();
      Thread reader = new Thread(() -> read(socket, response, answered), "large-body-reader");
      reader.start();

      OutputStream out = socket.getOutputStream();
      out.write(
          ("PUT /v1/payment-flows/1 HTTP/1.1\r\n"
                  + "Host: localhost\r\n"
                  + "Authorization: Bearer "
                  + RunningApi.MERCHANT_KEY
                  + "\r\n"
                  + "Content-Type: application/x-www-form-urlencoded\r\n"
                  + "Transfer-Encoding: chunked\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      AtomicLong sent = new AtomicLong();
      boolean answeredAtGate = false;
      byte[] chunk = formChunk();
      try {
        while (sent.get() < TOTAL) {
          writeChunk(out, chunk);
          sent.addAndGet(chunk.length);
          if (sent.get() == GATE) {
            answeredAtGate = answered.await(10, TimeUnit.SECONDS);
          }
        }
        out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
      } catch (IOException closedByServer) {
        // The server answered and closed the connection instead of reading the rest.
      }
      reader.join(30_000);

      String answer = response.toString(StandardCharsets.UTF_8);
      assertThat(answeredAtGate)
          .as("answered while the client had sent %d bytes: %s", GATE, answer)
          .isTrue();
      assertThat(answer).startsWith("HTTP/1.1 413").contains("\"code\":\"body_too_large\"");
      assertThat(sent.get()).as("bytes the client could send").isLessThan(TOTAL);
    }
  }

  /** {@code a=xxxx...}: one form field, generated chunk by chunk, never held whole. */
  private static byte[] formChunk() {
    byte[] data = new byte[CHUNK];
    Arrays.fill(data, (byte) 'x');
    data[0] = 'a';
    data[1] = '=';
    return data;
  }

  private static void writeChunk(OutputStream out, byte[] data) throws IOException {
    out.write((Integer.toHexString(data.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
    out.write(data);
    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
  }

  private static void read(Socket socket, ByteArrayOutputStream into, CountDownLatch answered) {
    byte[] buf = new byte[4096];
    try {
      InputStream in = socket.getInputStream();
      int n;
      while ((n = in.read(buf)) > 0) {
        synchronized (into) {
          into.write(buf, 0, n);
        }
        if (into.toString(StandardCharsets.UTF_8).contains("}")) {
          answered.countDown();
        }
      }
    } catch (IOException reset) {
      // The server closed the connection after its answer.
    } finally {
      answered.countDown();
    }
  }
}
