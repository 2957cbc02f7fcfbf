package io.hourglass.server;

import com.fasterxml.jackson.databind.JsonNode;
import io.hourglass.server.auth.PublicEndpoint;
import io.hourglass.server.auth.RequiresRight;
import io.hourglass.server.auth.Right;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.JsonSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The OpenAPI 3 description of the API, served at {@code /v3/api-docs} with Swagger UI at {@code /swagger-ui.html}
 * (springdoc-openapi). Controllers' annotations give summaries and their own answers; this class adds what every
 * endpoint shares: the bearer token security scheme and the right each endpoint needs, and the error answers with their
 * body {@code {"error": "<message naming the field>"}} (schema {@value #ERROR_SCHEMA}).
 */
@Configuration(proxyBeanMethods = false)
public class OpenApiConfiguration {
    /** Name of the error body's schema in the document's components. */
    public static final String ERROR_SCHEMA = "Error";
    /** Name of the bearer token security scheme in the document's components. */
    public static final String BEARER_SCHEME = "bearerToken";

    static {
        // Payloads are any JSON value; without this springdoc would describe Jackson's JsonNode class.
        SpringDocUtils.getConfig().replaceWithSchema(JsonNode.class, new JsonSchema().description("any JSON value"));
    }

    /** @return the document's description, security scheme and error schema */
    @Bean
    public OpenAPI hourglassOpenApi() {
        return new OpenAPI()
                .info(new Info()
                        .title("Hourglass")
                        .version("v1")
                        .description("A distributed delay queue on Redis: schedule jobs to run at a time, consume them"
                                + " with pull workers (reserve, then ack, nack or extend each delivery) or have them"
                                + " POSTed to a callback URL, and operate topics (overviews, listings, history, pause,"
                                + " run now, dead letters, purge). Every error is"
                                + " answered with a JSON body `{\"error\": \"...\"}` whose message starts with the"
                                + " field concerned."))
                .components(new Components()
                        .addSecuritySchemes(
                                BEARER_SCHEME,
                                new SecurityScheme()
                                        .type(SecurityScheme.Type.HTTP)
                                        .scheme("bearer")
                                        .description("An API token from the server's tokens file or HOURGLASS_TOKENS,"
                                                + " as Authorization: Bearer <token>. Each token has rights (produce,"
                                                + " consume, admin, metrics) on topics. Without configured tokens"
                                                + " (development) no token is needed."))
                        .addSchemas(
                                ERROR_SCHEMA,
                                new ObjectSchema()
                                        .description("Every error answer's body")
                                        .addProperty(
                                                "error",
                                                new StringSchema()
                                                        .description("What went wrong, starting with the field,"
                                                                + " header or setting concerned, e.g."
                                                                + " \"delayMs: must be zero or positive, got -1\""))
                                        .required(List.of("error"))))
                .addSecurityItem(new SecurityRequirement().addList(BEARER_SCHEME));
    }

    /**
     * @return a customizer that describes every {@code payload} and {@code result} property as any JSON value
     *     (springdoc describes the {@link JsonNode} it is read into as an object)
     */
    @Bean
    public OpenApiCustomizer hourglassSchemas() {
        return api -> {
            Map<String, Schema> schemas = api.getComponents().getSchemas();
            schemas.values().forEach(schema -> {
                Map<String, Schema> properties = schema.getProperties();
                for (String anyJson : List.of("payload", "result")) {
                    if (properties != null && properties.containsKey(anyJson)) {
                        Schema<?> value = properties.get(anyJson);
                        properties.put(anyJson, new JsonSchema().description(value.getDescription()));
                    }
                }
            });
        };
    }

    /**
     * @return a customizer that adds to each operation the right it needs and the error answers it can give: 400 (bad
     *     input), 401 and 403 (token), 413 and 415 (request body), 503 (Redis unreachable), each with the
     *     {@value #ERROR_SCHEMA} body; an endpoint open to all gets no security requirement
     */
    @Bean
    public OperationCustomizer hourglassOperations() {
        return (operation, handler) -> {
            if (handler.hasMethodAnnotation(PublicEndpoint.class)) {
                operation.setSecurity(List.of());
            } else {
                RequiresRight declared = handler.getMethodAnnotation(RequiresRight.class);
                List<Right> rights = declared == null ? List.of(Right.ADMIN) : Arrays.asList(declared.value());
                String needs = rights.stream().map(Right::jsonName).collect(Collectors.joining(" or "));
                boolean topicScoped = operation.getParameters() != null
                        && operation.getParameters().stream()
                                .anyMatch(p -> "path".equals(p.getIn()) && "topic".equals(p.getName()));
                append(
                        operation,
                        "Right: " + needs + (rights.contains(Right.ADMIN) ? "" : " (or admin)")
                                + (topicScoped ? ", on the topic." : "."));
                addError(operation, "401", "No token, or an unknown one (with WWW-Authenticate: Bearer)");
                addError(operation, "403", "The token lacks the right" + (topicScoped ? " or the topic" : ""));
            }
            boolean api = handler.getBeanType().getPackageName().endsWith(".api")
                    && !operation.getOperationId().equals("metrics");
            if (api && !handler.hasMethodAnnotation(PublicEndpoint.class)) {
                addError(operation, "400", "Bad input: the message names the field");
                if (operation.getRequestBody() != null) {
                    addError(operation, "413", "The payload or the request body is larger than the server's limit");
                    addError(operation, "415", "The request body is not application/json");
                }
                addError(operation, "503", "Redis is unreachable (with Retry-After: 1); try again");
            }
            describePathParameters(operation);
            if (!handler.hasMethodAnnotation(PublicEndpoint.class)) {
                setErrorBodies(operation.getResponses());
            }
            return operation;
        };
    }

    private static void append(Operation operation, String sentence) {
        String description = operation.getDescription();
        operation.setDescription(
                description == null || description.isBlank() ? sentence : description + " " + sentence);
    }

    private static void addError(Operation operation, String status, String description) {
        if (operation.getResponses() == null) {
            operation.setResponses(new ApiResponses());
        }
        operation.getResponses().putIfAbsent(status, new ApiResponse().description(description));
    }

    /** Gives the topic and id in paths the syntax that the server accepts (else 400). */
    private static void describePathParameters(Operation operation) {
        if (operation.getParameters() == null) {
            return;
        }
        for (Parameter parameter : operation.getParameters()) {
            if (!"path".equals(parameter.getIn())) {
                continue;
            }
            if (parameter.getName().equals("topic")) {
                parameter.description("1 to 100 characters of [A-Za-z0-9._-], starting with a letter or digit");
                parameter.schema(new StringSchema().pattern("^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$"));
            } else if (parameter.getName().equals("id")) {
                parameter.description("The job's id: 1 to 128 characters of [A-Za-z0-9._:-]");
                parameter.schema(new StringSchema().pattern("^[A-Za-z0-9._:-]{1,128}$"));
            }
        }
    }

    /**
     * Gives every 4xx and 5xx answer the error body (springdoc would describe the method's return type, which is the
     * success answer's).
     */
    private static void setErrorBodies(ApiResponses responses) {
        if (responses == null) {
            return;
        }
        for (Map.Entry<String, ApiResponse> entry : responses.entrySet()) {
            ApiResponse response = entry.getValue();
            if (entry.getKey().startsWith("4") || entry.getKey().startsWith("5")) {
                response.setContent(new Content()
                        .addMediaType(
                                org.springframework.http.MediaType.APPLICATION_JSON_VALUE,
                                new MediaType().schema(new Schema<>().$ref("#/components/schemas/" + ERROR_SCHEMA))));
            }
        }
    }
}
