package dev.clearway.service.api;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.security.SecurityScheme;
import java.util.Map;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.JsonNode;

/**
 * The OpenAPI document at {@code /v3/api-docs}, complete enough for a client generator: one bearer
 * scheme per role ({@code merchantKey}, {@code operatorKey}, {@code approverKey}, {@code
 * metricsKey}) required on each path by the rule {@link ApiKeyFilter} applies to it, the {@link
 * ApiError} answers every operation shares ({@link CommonAnswers}), each operation's own refusals
 * ({@link Refusal}), and a required {@code Idempotency-Key} wherever an operation reads one. An
 * endpoint added later gets its security and shared answers from its path and shape alone.
 */
@Configuration(proxyBeanMethods = false)
public class ApiDocumentation {
  static {
    // A JSON tree (e.g. evidence kept as received) is any JSON value, not a bean of its getters.
    SpringDocUtils.getConfig()
        .replaceWithSchema(
            JsonNode.class, new Schema<>().description("any JSON value, as received"));
  }

  /** The security scheme of a role's keys, e.g. {@code merchantKey}. */
  static String scheme(Role role) {
    return role.label() + "Key";
  }

  @Bean
  OperationCustomizer refusalAnswers() {
    return (operation, handler) -> {
      for (Refusal refusal : handler.getMethod().getAnnotationsByType(Refusal.class)) {
        ErrorAnswers.add(operation, refusal.status(), refusal.code(), refusal.message());
      }
      return operation;
    };
  }

  @Bean
  OpenApiCustomizer clearwayDocument() {
    return document -> {
      document.info(
          new Info()
              .title("Clearway")
              .version("v1")
              .description(
                  "Payments, refunds and operations of the Clearway payment consistency engine."
                      + " Every refusal answers {code, message} with a stable code."));
      components(document);
      PrometheusPath.add(document);
      for (Map.Entry<String, PathItem> path : document.getPaths().entrySet()) {
        for (Map.Entry<PathItem.HttpMethod, Operation> operation :
            path.getValue().readOperationsMap().entrySet()) {
          CommonAnswers.apply(path.getKey(), operation.getKey(), operation.getValue());
          ErrorAnswers.finish(operation.getValue());
        }
      }
    };
  }

  private static void components(OpenAPI document) {
    if (document.getComponents() == null) {
      document.setComponents(new Components());
    }
    Components components = document.getComponents();
    for (Role role : Role.values()) {
      components.addSecuritySchemes(
          scheme(role),
          new SecurityScheme()
              .type(SecurityScheme.Type.HTTP)
              .scheme("bearer")
              .description(
                  "A "
                      + role.label()
                      + " key, sent as Authorization: Bearer <key> (configured by "
                      + role.variable()
                      + ")."));
    }
    components.addSchemas(
        ErrorAnswers.SCHEMA,
        new ObjectSchema()
            .description("The body of every 4xx and 5xx answer.")
            .addProperty(
                "code",
                new StringSchema()
                    .description("Stable machine code, listed per answer.")
                    .example("missing_field"))
            .addProperty(
                "message",
                new StringSchema()
                    .description("Human explanation; never echoes secrets.")
                    .example("amount is required"))
            .addRequiredItem("code")
            .addRequiredItem("message"));
  }
}
