package dev.clearway.service.api;

import java.util.function.Supplier;
import org.springframework.beans.factory.ObjectProvider;

/**
 * An optional bean looked up once, at its first use, and kept (present or absent). The container's
 * {@link ObjectProvider#getIfAvailable()} resolves the dependency anew on every call (bean names by
 * type, qualifier annotations, candidate checks); a request path asks for the bean several times
 * per request, and the answer does not change once the context has started.
 */
final class FirstLookup<T> implements Supplier<T> {
  private final ObjectProvider<T> provider;
  private volatile Supplier<T> found;

  FirstLookup(ObjectProvider<T> provider) {
    this.provider = provider;
  }

  @Override
  public T get() {
    Supplier<T> f = found;
    if (f == null) {
      T bean = provider.getIfAvailable();
      f = () -> bean;
      found = f;
    }
    return f.get();
  }
}
