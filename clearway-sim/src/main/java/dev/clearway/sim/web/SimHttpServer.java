package dev.clearway.sim.web;

import com.sun.net.httpserver.HttpHandler;
import java.io.UncheckedIOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The simulators' HTTP/1.1 server on loopback: an embedded Jetty that runs a JDK {@link
 * HttpHandler} per request and sends response header names exactly as the handler spelled them. The
 * JDK's own server cannot: its {@code Headers} rewrites every name to first letter upper, rest
 * lower, which clients that look headers up by their exact name (WeChat Pay's SDK) refuse.
 */
public final class SimHttpServer implements AutoCloseable {
  private static final int SERVER_THREADS = 4;

  private final Server server;
  private final ServerConnector connector;

  private SimHttpServer(Server server, ServerConnector connector) {
    this.server = server;
    this.connector = connector;
  }

  /**
   * Binds to the loopback interface and starts serving.
   *
   * @param port 0 for an ephemeral port
   * @param handlerThreads requests handled at once
   * @param threadName prefix of the server's thread names
   * @throws UncheckedIOException if the port cannot be bound
   */
  public static SimHttpServer start(
      int port, int handlerThreads, String threadName, HttpHandler handler) {
    QueuedThreadPool threads = new QueuedThreadPool(handlerThreads + SERVER_THREADS, 2);
    threads.setName(threadName);
    threads.setDaemon(true);
    threads.setReservedThreads(0);
    Server server = new Server(threads);
    HttpConfiguration config = new HttpConfiguration();
    config.setSendServerVersion(false);
    config.setSendXPoweredBy(false);
    ServerConnector connector =
        new ServerConnector(server, 1, 1, new HttpConnectionFactory(config));
    connector.setHost(InetAddress.getLoopbackAddress().getHostAddress());
    connector.setPort(port);
    server.addConnector(connector);
    server.setHandler(new Adapter(handler));
    try {
      server.start();
    } catch (Exception e) {
      stopQuietly(server);
      throw new UncheckedIOException(
          "cannot bind " + threadName + " to port " + port,
          e instanceof java.io.IOException io ? io : new java.io.IOException(e));
    }
    return new SimHttpServer(server, connector);
  }

  public int port() {
    return connector.getLocalPort();
  }

  /** {@code http://127.0.0.1:<port>}, without a trailing slash. */
  public URI baseUrl() {
    InetAddress address = InetAddress.getLoopbackAddress();
    String host = address.getHostAddress();
    if (address instanceof Inet6Address) {
      host = "[" + host + "]";
    }
    return URI.create("http://" + host + ":" + port());
  }

  /** Stops listening at once and drops open connections and held responses. */
  @Override
  public void close() {
    stopQuietly(server);
  }

  private static void stopQuietly(Server server) {
    try {
      server.setStopTimeout(0);
      server.stop();
    } catch (Exception e) {
      // Stopping is best effort: the threads are daemons.
    }
  }

  private static final class Adapter extends Handler.Abstract {
    private final HttpHandler handler;

    Adapter(HttpHandler handler) {
      super(InvocationType.BLOCKING);
      this.handler = handler;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      JettyExchange exchange = new JettyExchange(request, response);
      try {
        handler.handle(exchange);
      } catch (java.io.IOException | RuntimeException e) {
        // As the JDK server does: a handler that throws leaves the connection without an answer.
      }
      exchange.finish(callback);
      return true;
    }
  }
}
