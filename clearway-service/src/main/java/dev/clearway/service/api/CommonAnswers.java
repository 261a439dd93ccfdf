package dev.clearway.service.api;

import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.BooleanSchema;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What every operation shares, read from its path and shape: the keys it takes (the rule of {@link
 * ApiKeyFilter}) with 401 {@code unauthorized} and 403 {@code forbidden}; 404 {@code not_found} for
 * a path the filter refuses to read; 413 {@code body_too_large} on methods that send a body; 400
 * {@code malformed_json} and 415 {@code unsupported_media_type} where a JSON body is read; 400
 * {@code invalid_parameter} where a typed parameter may not parse; 500 {@code internal_error}; and,
 * where the operation reads an {@code Idempotency-Key}, that header required with its 400 codes and
 * the {@code Idempotent-Replayed} header of a replay. A 503 carries {@code Retry-After}.
 */
final class CommonAnswers {
  static final String IDEMPOTENCY_KEY = "Idempotency-Key";
  private static final Set<String> TYPED = Set.of("integer", "number", "boolean");

  private CommonAnswers() {}

  static void apply(String path, PathItem.HttpMethod method, Operation operation) {
    security(path, operation);
    ErrorAnswers.add(operation, 404, "not_found", "no such resource");
    ErrorAnswers.add(operation, 500, "internal_error", "internal error");
    if (operation.getRequestBody() != null) {
      ErrorAnswers.add(operation, 400, "malformed_json", "the request body is not valid JSON");
      ErrorAnswers.add(
          operation, 415, "unsupported_media_type", "send the body as application/json");
    }
    if (operation.getRequestBody() != null || sendsBody(method)) {
      ErrorAnswers.add(operation, 413, "body_too_large", "the request body exceeds 64 KiB");
    }
    if (operation.getParameters() != null) {
      for (Parameter parameter : operation.getParameters()) {
        parameter(operation, parameter);
      }
    }
    idempotencyKey(operation);
    retryAfter(operation);
    requiredBody(operation);
  }

  /** A body whose absence is refused 400 {@code missing_body} is a required body. */
  private static void requiredBody(Operation operation) {
    ApiResponse refused = operation.getResponses().get("400");
    if (operation.getRequestBody() != null
        && refused != null
        && refused.getContent() != null
        && refused.getContent().get("application/json") != null
        && refused.getContent().get("application/json").getExamples().containsKey("missing_body")) {
      operation.getRequestBody().required(true);
    }
  }

  /** The roles ApiKeyFilter admits to this path, each an alternative security requirement. */
  private static void security(String path, Operation operation) {
    if (ApiKeyFilter.isOpen(path)) {
      return;
    }
    List<SecurityRequirement> any = new ArrayList<>();
    for (Role role : Role.values()) {
      if (ApiKeyFilter.refusal(role, path).isEmpty()) {
        any.add(new SecurityRequirement().addList(ApiDocumentation.scheme(role)));
      }
    }
    operation.setSecurity(any);
    ErrorAnswers.add(operation, 401, "unauthorized", "a valid API key is required");
    if (any.size() < Role.values().length) {
      ErrorAnswers.add(operation, 403, "forbidden", "this key may not call this operation");
    }
  }

  /** A POST, PUT or PATCH without a declared body still has its body size checked. */
  private static boolean sendsBody(PathItem.HttpMethod method) {
    return method == PathItem.HttpMethod.POST
        || method == PathItem.HttpMethod.PUT
        || method == PathItem.HttpMethod.PATCH;
  }

  /** A typed parameter may not parse; the paging and merchant filters have their own codes. */
  private static void parameter(Operation operation, Parameter parameter) {
    if (typed(parameter)) {
      ErrorAnswers.add(
          operation, 400, "invalid_parameter", "invalid value for " + parameter.getName());
    }
    if (!"query".equals(parameter.getIn())) {
      return;
    }
    switch (parameter.getName()) {
      case "cursor" ->
          ErrorAnswers.add(
              operation, 400, "invalid_cursor", "cursor must be the nextCursor of a previous page");
      case "limit" ->
          ErrorAnswers.add(operation, 400, "invalid_parameter", "limit must be between 1 and 100");
      case "merchant" ->
          ErrorAnswers.add(
              operation,
              400,
              "invalid_parameter",
              "merchant must be 1 to 64 letters, digits, '-', '_' or '.'");
      default -> {}
    }
  }

  private static boolean typed(Parameter parameter) {
    if (!"path".equals(parameter.getIn()) && !"query".equals(parameter.getIn())) {
      return false;
    }
    Schema<?> schema = parameter.getSchema();
    if (schema == null) {
      return false;
    }
    // OpenAPI 3.0 names one type, 3.1 a set of them.
    if (schema.getType() != null) {
      return TYPED.contains(schema.getType());
    }
    return schema.getTypes() != null && schema.getTypes().stream().anyMatch(TYPED::contains);
  }

  /** The key is required: a create without one is refused 400 before anything is written. */
  private static void idempotencyKey(Operation operation) {
    if (operation.getParameters() == null) {
      return;
    }
    for (Parameter parameter : operation.getParameters()) {
      if ("header".equals(parameter.getIn()) && IDEMPOTENCY_KEY.equals(parameter.getName())) {
        parameter.required(true);
        parameter.description(
            "The client's unique key for this create, at most 255 characters: a retry with the"
                + " same key and body answers the first result (Idempotent-Replayed: true) and"
                + " never creates twice; the same key with other parameters is refused 422"
                + " idempotency_key_reused.");
        parameter.schema(new StringSchema().minLength(1).maxLength(255));
        parameter.example("order-4711-attempt-1");
        ErrorAnswers.add(
            operation, 400, "idempotency_key_missing", "the Idempotency-Key header is required");
        ErrorAnswers.add(
            operation,
            400,
            "idempotency_key_too_long",
            "the Idempotency-Key header is longer than 255 characters");
        replayedHeader(operation);
      }
    }
  }

  private static void replayedHeader(Operation operation) {
    for (String status : List.of("200", "201")) {
      ApiResponse answer = operation.getResponses().get(status);
      if (answer != null) {
        answer.addHeaderObject(
            "Idempotent-Replayed",
            new Header()
                .description("true when this answers an earlier request with the same key")
                .schema(new BooleanSchema()));
      }
    }
  }

  private static void retryAfter(Operation operation) {
    ApiResponse unavailable =
        operation.getResponses() == null ? null : operation.getResponses().get("503");
    if (unavailable != null) {
      unavailable.addHeaderObject(
          "Retry-After",
          new Header()
              .description("With overloaded: seconds to wait before retrying with the same key")
              .schema(new IntegerSchema()));
    }
  }
}
