package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;

class FirstLookupTest {

  @Test
  void anAbsentBeanIsLookedUpOnceAndStaysAbsent() {
    DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
    FirstLookup<StringBuilder> lookup =
        new FirstLookup<>(beans.getBeanProvider(StringBuilder.class));

    assertThat(lookup.get()).isNull();
    // Registered after the first use: the container would answer it now, the lookup keeps its
    // first answer (it asks once, not per call).
    beans.registerSingleton("late", new StringBuilder("late"));
    assertThat(beans.getBeanProvider(StringBuilder.class).getIfAvailable()).isNotNull();
    assertThat(lookup.get()).isNull();
  }

  @Test
  void aPresentBeanIsTheSameInstanceOnEveryCall() {
    DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
    StringBuilder bean = new StringBuilder("channels");
    beans.registerSingleton("channels", bean);
    FirstLookup<StringBuilder> lookup =
        new FirstLookup<>(beans.getBeanProvider(StringBuilder.class));

    assertThat(lookup.get()).isSameAs(bean);
    assertThat(lookup.get()).isSameAs(bean);
  }
}
