package dev.clearway.service.api;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.Paths;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;

/**
 * The Prometheus scrape in the document: an actuator endpoint, not a controller, so springdoc does
 * not list it; its keys (operator or metrics) come from {@link ApiKeyFilter} like every path's.
 */
final class PrometheusPath {
  private PrometheusPath() {}

  static void add(OpenAPI document) {
    if (document.getPaths() == null) {
      document.setPaths(new Paths());
    }
    if (document.getPaths().containsKey(ApiKeyFilter.PROMETHEUS)) {
      return;
    }
    Operation scrape =
        new Operation()
            .operationId("scrapeMetrics")
            .addTagsItem("metrics")
            .summary("Prometheus scrape of the service's meters (operator or metrics key)")
            .responses(
                new ApiResponses()
                    .addApiResponse(
                        "200",
                        new ApiResponse()
                            .description("the meters in the Prometheus text format")
                            .content(
                                new Content()
                                    .addMediaType(
                                        "text/plain",
                                        new MediaType().schema(new StringSchema())))));
    document.getPaths().addPathItem(ApiKeyFilter.PROMETHEUS, new PathItem().get(scrape));
  }
}
