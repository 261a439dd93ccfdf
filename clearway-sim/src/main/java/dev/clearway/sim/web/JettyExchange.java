package dev.clearway.sim.web;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.io.QuietException;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Blocker;
import org.eclipse.jetty.util.Callback;

/**
 * One Jetty request seen through the JDK's {@link HttpExchange}, with the JDK server's semantics:
 * {@link #sendResponseHeaders} commits the status line and headers (length -1: no body, 0: chunked,
 * n: exactly n bytes), and closing the exchange before that drops the connection without an answer.
 * Response header names go out as the handler spelled them.
 */
final class JettyExchange extends HttpExchange {
  private final Request request;
  private final Response response;
  private final Headers requestHeaders = new Headers();
  private final SpelledHeaders responseHeaders = new SpelledHeaders();
  private final Map<String, Object> attributes = new HashMap<>();
  private InputStream in;
  private OutputStream out;
  private int status = -1;
  private boolean closed;

  JettyExchange(Request request, Response response) {
    this.request = request;
    this.response = response;
    for (HttpField field : request.getHeaders()) {
      requestHeaders.add(field.getName(), field.getValue());
    }
    this.in = Content.Source.asInputStream(request);
  }

  @Override
  public Headers getRequestHeaders() {
    return requestHeaders;
  }

  @Override
  public Headers getResponseHeaders() {
    return responseHeaders;
  }

  @Override
  public URI getRequestURI() {
    return URI.create(request.getHttpURI().getPathQuery());
  }

  @Override
  public String getRequestMethod() {
    return request.getMethod();
  }

  @Override
  public HttpContext getHttpContext() {
    return null;
  }

  @Override
  public InputStream getRequestBody() {
    return in;
  }

  @Override
  public OutputStream getResponseBody() {
    if (out == null) {
      throw new IllegalStateException("sendResponseHeaders has not been called");
    }
    return out;
  }

  @Override
  public void sendResponseHeaders(int code, long length) throws IOException {
    if (status != -1) {
      throw new IOException("headers already sent");
    }
    status = code;
    response.setStatus(code);
    for (Map.Entry<String, List<String>> header : responseHeaders.entrySet()) {
      String name = responseHeaders.spelled(header.getKey());
      for (String value : header.getValue()) {
        response.getHeaders().add(name, value);
      }
    }
    if (length > 0) {
      response.getHeaders().put(HttpHeader.CONTENT_LENGTH, length);
    } else if (length < 0) {
      response.getHeaders().put(HttpHeader.CONTENT_LENGTH, 0L);
    }
    try (Blocker.Callback committed = Blocker.callback()) {
      response.write(length < 0, ByteBuffer.allocate(0), committed);
      committed.block();
    }
    out = length < 0 ? OutputStream.nullOutputStream() : Content.Sink.asOutputStream(response);
  }

  @Override
  public InetSocketAddress getRemoteAddress() {
    SocketAddress remote = request.getConnectionMetaData().getRemoteSocketAddress();
    return remote instanceof InetSocketAddress inet ? inet : null;
  }

  @Override
  public int getResponseCode() {
    return status;
  }

  @Override
  public InetSocketAddress getLocalAddress() {
    SocketAddress local = request.getConnectionMetaData().getLocalSocketAddress();
    return local instanceof InetSocketAddress inet ? inet : null;
  }

  @Override
  public String getProtocol() {
    return request.getConnectionMetaData().getProtocol();
  }

  @Override
  public Object getAttribute(String name) {
    return attributes.get(name);
  }

  @Override
  public void setAttribute(String name, Object value) {
    attributes.put(name, value);
  }

  @Override
  public void setStreams(InputStream i, OutputStream o) {
    if (i != null) {
      in = i;
    }
    if (o != null) {
      out = o;
    }
  }

  @Override
  public HttpPrincipal getPrincipal() {
    return null;
  }

  /** Ends the exchange: the answer if one was begun, else the connection without an answer. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (status == -1) {
      request.getConnectionMetaData().getConnection().getEndPoint().close();
      return;
    }
    try {
      out.close();
    } catch (IOException e) {
      // The client went away; nothing is left to send.
    }
  }

  /** Completes Jetty's side after the handler returned, closing the exchange if it did not. */
  void finish(Callback callback) {
    boolean answered = status != -1;
    close();
    if (answered) {
      callback.succeeded();
    } else {
      // A deliberate fault, not a server error: Jetty logs a quiet exception at debug only.
      callback.failed(new QuietException.Exception("dropped without an answer"));
    }
  }
}
