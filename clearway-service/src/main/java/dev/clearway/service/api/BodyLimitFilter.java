package dev.clearway.service.api;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses request bodies over 64 KiB with 413 {@code body_too_large}, for every method and content
 * type, before anything else reads them: this filter runs first. A declared length over the limit
 * is refused at once; a body of unknown length (chunked) is read here, at most one byte past the
 * limit, and either refused or handed on from that buffer, so no later filter, form parser or
 * converter ever sees more than 64 KiB of it.
 */
public final class BodyLimitFilter extends OncePerRequestFilter {
  static final int LIMIT = 64 * 1024;

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    long declared = request.getContentLengthLong();
    if (declared > LIMIT) {
      tooLarge(response);
      return;
    }
    if (declared >= 0) {
      chain.doFilter(new Limited(request), response);
      return;
    }
    byte[] body = readAtMost(request.getInputStream(), LIMIT + 1);
    if (body.length > LIMIT) {
      tooLarge(response);
      return;
    }
    chain.doFilter(new Buffered(request, body), response);
  }

  /**
   * Answers at once, before the container drains or drops the rest of the body, and closes the
   * connection: the rest is never read.
   */
  private static void tooLarge(HttpServletResponse response) throws IOException {
    response.setHeader("Connection", "close");
    JsonErrors.write(
        response,
        HttpStatus.CONTENT_TOO_LARGE,
        "body_too_large",
        "the request body exceeds 64 KiB");
    response.flushBuffer();
  }

  /** Reads until the end of the body or {@code max} bytes, whichever comes first. */
  private static byte[] readAtMost(InputStream in, int max) throws IOException {
    // Grows with what arrives: a request without a body allocates next to nothing.
    return in.readNBytes(max);
  }

  /** True when a body-read failure was this filter's limit. */
  static boolean isTooLarge(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof TooLarge) {
        return true;
      }
    }
    return false;
  }

  private static final class TooLarge extends IOException {
    private static final long serialVersionUID = 1L;

    TooLarge() {
      super("request body exceeds " + LIMIT + " bytes");
    }
  }

  /** A body of declared length: reading past the limit fails (the container enforces it too). */
  private static final class Limited extends HttpServletRequestWrapper {
    Limited(HttpServletRequest request) {
      super(request);
    }

    @Override
    public ServletInputStream getInputStream() throws IOException {
      ServletInputStream in = super.getInputStream();
      return new ServletInputStream() {
        private long read;

        @Override
        public int read() throws IOException {
          int b = in.read();
          if (b >= 0 && ++read > LIMIT) {
            throw new TooLarge();
          }
          return b;
        }

        @Override
        public int read(byte[] buf, int off, int len) throws IOException {
          int n = in.read(buf, off, len);
          if (n > 0 && (read += n) > LIMIT) {
            throw new TooLarge();
          }
          return n;
        }

        @Override
        public boolean isFinished() {
          return in.isFinished();
        }

        @Override
        public boolean isReady() {
          return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
          in.setReadListener(listener);
        }
      };
    }
  }

  /** A body of unknown length, already read here within the limit: served from that buffer. */
  private static final class Buffered extends HttpServletRequestWrapper {
    private final byte[] body;

    Buffered(HttpServletRequest request, byte[] body) {
      super(request);
      this.body = body;
    }

    @Override
    public int getContentLength() {
      return body.length;
    }

    @Override
    public long getContentLengthLong() {
      return body.length;
    }

    @Override
    public ServletInputStream getInputStream() {
      ByteArrayInputStream in = new ByteArrayInputStream(body);
      return new ServletInputStream() {
        @Override
        public int read() {
          return in.read();
        }

        @Override
        public int read(byte[] buf, int off, int len) {
          return in.read(buf, off, len);
        }

        @Override
        public boolean isFinished() {
          return in.available() == 0;
        }

        @Override
        public boolean isReady() {
          return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
          try {
            listener.onDataAvailable();
            listener.onAllDataRead();
          } catch (IOException e) {
            listener.onError(e);
          }
        }
      };
    }

    @Override
    public BufferedReader getReader() {
      String encoding = getCharacterEncoding();
      Charset charset = encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding);
      return new BufferedReader(new InputStreamReader(new ByteArrayInputStream(body), charset));
    }
  }
}
