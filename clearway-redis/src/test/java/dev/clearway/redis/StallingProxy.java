package dev.clearway.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP proxy in front of Redis whose answers can be held back for a while, as a saturated machine
 * holds them: Redis stays reachable and keeps its state, but a command waits longer than its
 * timeout.
 */
final class StallingProxy implements AutoCloseable {
  private final ServerSocket server;
  private final String redisHost;
  private final int redisPort;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private volatile long heldUntilNanos = System.nanoTime();

  private StallingProxy(ServerSocket server, String redisHost, int redisPort) {
    this.server = server;
    this.redisHost = redisHost;
    this.redisPort = redisPort;
  }

  /** A proxy on a free loopback port in front of {@code redisHost:redisPort}. */
  static StallingProxy to(String redisHost, int redisPort) throws IOException {
    StallingProxy proxy =
        new StallingProxy(
            new ServerSocket(0, 50, InetAddress.getLoopbackAddress()), redisHost, redisPort);
    proxy.daemon("stalling-proxy-accept", proxy::accept);
    return proxy;
  }

  /** The URL a link uses to reach Redis through this proxy. */
  String url() {
    return "redis://127.0.0.1:" + server.getLocalPort();
  }

  /** Holds every answer from Redis for {@code d} from now. */
  void hold(Duration d) {
    heldUntilNanos = System.nanoTime() + d.toNanos();
  }

  private void accept() {
    try {
      while (!server.isClosed()) {
        Socket client = server.accept();
        Socket redis = new Socket(redisHost, redisPort);
        sockets.add(client);
        sockets.add(redis);
        daemon("stalling-proxy-up", () -> pump(client, redis, false));
        daemon("stalling-proxy-down", () -> pump(redis, client, true));
      }
    } catch (IOException closed) {
      // the proxy was closed
    }
  }

  private void pump(Socket from, Socket to, boolean held) {
    byte[] buffer = new byte[16 * 1024];
    try (InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream()) {
      int n;
      while ((n = in.read(buffer)) >= 0) {
        if (held) {
          long left;
          while ((left = heldUntilNanos - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
          }
        }
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (IOException closed) {
      // one side closed
    }
  }

  private void daemon(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket s : sockets) {
      s.close();
    }
  }
}
