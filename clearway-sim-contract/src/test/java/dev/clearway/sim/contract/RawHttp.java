package dev.clearway.sim.contract;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One HTTP/1.1 exchange over a plain socket, so that the test sees the header names exactly as they
 * crossed the wire (HTTP client libraries fold their case).
 */
final class RawHttp {
  private RawHttp() {}

  /** The response's header lines (status line excluded), as sent. */
  static List<String> headerLines(URI base, String method, String path, String... headers)
      throws IOException {
    try (Socket socket = new Socket(base.getHost(), base.getPort())) {
      socket.setSoTimeout(5_000);
      StringBuilder request = new StringBuilder();
      request.append(method).append(' ').append(path).append(" HTTP/1.1\r\n");
      request.append("Host: ").append(base.getHost()).append(':').append(base.getPort());
      request.append("\r\nConnection: close\r\n");
      for (String header : headers) {
        request.append(header).append("\r\n");
      }
      request.append("Content-Length: 0\r\n\r\n");
      OutputStream out = socket.getOutputStream();
      out.write(request.toString().getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String head = readHead(socket.getInputStream());
      List<String> lines = new ArrayList<>(List.of(head.split("\r\n")));
      lines.remove(0);
      return lines;
    }
  }

  /** The names of the header lines, as sent. */
  static List<String> headerNames(List<String> lines) {
    return lines.stream().map(line -> line.substring(0, line.indexOf(':'))).toList();
  }

  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    byte[] end = {'\r', '\n', '\r', '\n'};
    int b;
    while (matched < end.length && (b = in.read()) != -1) {
      head.write(b);
      matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    String text = head.toString(StandardCharsets.US_ASCII);
    return text.substring(0, Math.max(0, text.length() - end.length));
  }
}
