package dev.clearway.sim.contract;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A notification endpoint on a plain server socket: records each request's header lines as they
 * crossed the wire, with its body, and answers 200.
 */
final class RawReceiver implements AutoCloseable {
  record Received(List<String> headerLines, String body) {
    /** The value of the header spelled exactly {@code name}; empty when no line has it. */
    Optional<String> exactly(String name) {
      return headerLines.stream()
          .filter(line -> line.startsWith(name + ":"))
          .map(line -> line.substring(name.length() + 1).trim())
          .findFirst();
    }
  }

  private final ServerSocket socket;
  private final BlockingQueue<Received> received = new LinkedBlockingQueue<>();
  private final Thread acceptor;

  RawReceiver() throws IOException {
    socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    acceptor = new Thread(this::acceptAll, "raw-receiver");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  URI url() {
    return URI.create("http://127.0.0.1:" + socket.getLocalPort() + "/notify");
  }

  Received next(Duration within) throws InterruptedException {
    Received r = received.poll(within.toMillis(), TimeUnit.MILLISECONDS);
    if (r == null) {
      throw new AssertionError("nothing received within " + within);
    }
    return r;
  }

  private void acceptAll() {
    while (!socket.isClosed()) {
      try (Socket client = socket.accept()) {
        client.setSoTimeout(5_000);
        received.add(read(client.getInputStream()));
        client
            .getOutputStream()
            .write(
                "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
      } catch (IOException e) {
        // Closed, or a client that went away: wait for the next one.
      }
    }
  }

  private static Received read(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    byte[] end = {'\r', '\n', '\r', '\n'};
    int b;
    while (matched < end.length && (b = in.read()) != -1) {
      head.write(b);
      matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    List<String> lines =
        new ArrayList<>(List.of(head.toString(StandardCharsets.US_ASCII).split("\r\n")));
    lines.remove(0);
    int length =
        lines.stream()
            .filter(line -> line.toLowerCase().startsWith("content-length:"))
            .map(line -> Integer.parseInt(line.substring("content-length:".length()).trim()))
            .findFirst()
            .orElse(0);
    String body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
    return new Received(List.copyOf(lines), body);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
