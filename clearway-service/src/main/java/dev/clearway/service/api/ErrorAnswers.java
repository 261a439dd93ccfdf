package dev.clearway.service.api;

import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.examples.Example;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.http.HttpStatus;

/**
 * The documented error answers of an operation: for each status one {@code {code, message}} ({@link
 * ApiError}) answer, one example per code, and a description that lists every code.
 */
final class ErrorAnswers {
  static final String SCHEMA = "ApiError";
  static final String SCHEMA_REF = "#/components/schemas/" + SCHEMA;
  private static final String JSON = "application/json";

  private ErrorAnswers() {}

  /** Adds {@code code} to the operation's {@code status} answer (created if absent). */
  static void add(Operation operation, int status, String code, String message) {
    if (operation.getResponses() == null) {
      operation.setResponses(new ApiResponses());
    }
    String key = Integer.toString(status);
    ApiResponse answer = operation.getResponses().get(key);
    if (answer == null) {
      answer = new ApiResponse();
      operation.getResponses().addApiResponse(key, answer);
    }
    if (answer.getContent() == null) {
      answer.setContent(new Content());
    }
    MediaType json = answer.getContent().get(JSON);
    if (json == null || json.getExamples() == null) {
      json = new MediaType().schema(new Schema<>().$ref(SCHEMA_REF));
      json.setExamples(new LinkedHashMap<>());
      answer.getContent().addMediaType(JSON, json);
    }
    if (!json.getExamples().containsKey(code)) {
      Map<String, String> body = new LinkedHashMap<>();
      body.put("code", code);
      body.put("message", message);
      json.getExamples().put(code, new Example().summary(code).value(body));
    }
  }

  /**
   * Writes each error answer's description from its codes, and orders the answers by status. A
   * description already written by hand is kept ahead of the list.
   */
  static void finish(Operation operation) {
    ApiResponses answers = operation.getResponses();
    if (answers == null) {
      return;
    }
    Map<String, ApiResponse> sorted = new TreeMap<>(answers);
    answers.clear();
    sorted.forEach(
        (status, answer) -> {
          List<String> codes = codes(answer);
          if (!codes.isEmpty()) {
            answer.setDescription(description(status, answer.getDescription(), codes));
          }
          answers.addApiResponse(status, answer);
        });
  }

  private static List<String> codes(ApiResponse answer) {
    if (answer.getContent() == null || answer.getContent().get(JSON) == null) {
      return List.of();
    }
    Map<String, Example> examples = answer.getContent().get(JSON).getExamples();
    return examples == null ? List.of() : new ArrayList<>(examples.keySet());
  }

  private static String description(String status, String written, List<String> codes) {
    StringBuilder text = new StringBuilder();
    if (written != null && !written.isBlank() && !written.contains("Error codes:")) {
      text.append(written.strip()).append(". ");
    } else {
      HttpStatus known = HttpStatus.resolve(Integer.parseInt(status));
      text.append(known == null ? status : known.getReasonPhrase()).append(". ");
    }
    text.append("Error codes: ");
    for (int i = 0; i < codes.size(); i++) {
      text.append(i == 0 ? "" : ", ").append('`').append(codes.get(i)).append('`');
    }
    return text.append('.').toString();
  }
}
