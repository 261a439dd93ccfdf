package dev.clearway.app.api;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses request bodies over 64 KiB with 413 {@code body_too_large}: at once when the declared
 * length is over, or as soon as a chunked body passes the limit while it is read.
 */
public final class BodyLimitFilter extends OncePerRequestFilter {
  static final int LIMIT = 64 * 1024;

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    if (request.getContentLengthLong() > LIMIT) {
      JsonErrors.write(
          response,
          HttpStatus.CONTENT_TOO_LARGE,
          "body_too_large",
          "the request body exceeds 64 KiB");
      return;
    }
    chain.doFilter(new Limited(request), response);
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
}
