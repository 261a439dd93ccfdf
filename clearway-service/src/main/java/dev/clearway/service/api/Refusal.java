package dev.clearway.service.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * One refusal an operation can answer with: its status and its stable {@code code}, documented in
 * the OpenAPI document as an {@link ApiError} answer whose description lists every code of that
 * status and whose examples show each. The answers every operation shares (keys, body size,
 * malformed JSON) are added by {@link ApiDocumentation}; only an operation's own are declared here.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@Repeatable(Refusals.class)
public @interface Refusal {
  /** The HTTP status, e.g. 409. */
  int status();

  /** The stable machine code of the body. */
  String code();

  /** A message as the service writes it, for the example. */
  String message();
}
