package io.hourglass.server.api;

import io.hourglass.ColdTierUnavailableException;
import io.hourglass.HourglassException;
import io.hourglass.JobAlreadyExistsException;
import io.hourglass.RedisUnavailableException;
import io.hourglass.ScheduleResult;
import io.hourglass.StaleReceiptException;
import io.hourglass.server.RequestBodyTimeoutException;
import io.hourglass.server.RequestBodyTooLargeException;
import io.hourglass.server.auth.AccessDeniedException;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.UnsupportedCharsetException;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.context.request.async.AsyncRequestTimeoutException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.NoHandlerFoundException;
import org.springframework.web.servlet.resource.NoResourceFoundException;

/**
 * Maps every failure to a status and a body {@code {"error": "<message naming the field>"}}. Bad input is always 4xx:
 * 400 bad fields or JSON, 403 a token without the right or topic, 404 unknown topic, job or path, 405 wrong method, 409
 * conflicts (existing id, stale or foreign receipt, a dead job rescheduled, a live job requeued, an active or dead job
 * run now), 413 a payload or body above the limit, 408 a body that took too long to arrive, 415 not JSON, Spring's
 * other web errors their own 4xx; 503 with {@code Retry-After} when Redis or the cold tier's PostgreSQL is unreachable
 * or too few replicas confirmed a write. (401 comes from the token filter, before any controller.)
 */
@RestControllerAdvice
public class ApiExceptionHandler {
    private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);
    private static final Pattern CHARSET = Pattern.compile("(?i)charset\\s*=\\s*\"?([^\";\\s]*)");
    /**
     * The core's message when WAIT (HourglassBuilder.waitForReplicas) saw too few replicas: "schedule was applied by
     * the master but only 0 of 1 replicas confirmed it within 1000 ms; ...". The core has no exception type of its own
     * for it; a server test (ReplicaWaitIntegrationTests) fails if the message changes.
     */
    private static final Pattern TOO_FEW_REPLICAS = Pattern.compile(
            "(\\w+) was applied by the master but only (\\d+) of (\\d+) replicas confirmed it within" + " (\\d+) ms");

    /** @return 400 naming the field; 415 for a {@code Content-Type} Spring cannot use (e.g. a wildcard) */
    @ExceptionHandler(IllegalArgumentException.class)
    public ResponseEntity<Map<String, String>> badArgument(IllegalArgumentException e) {
        String message = String.valueOf(e.getMessage());
        if (message.startsWith("Content-Type")) {
            return error(
                    HttpStatus.UNSUPPORTED_MEDIA_TYPE,
                    "Content-Type: must be application/json ("
                            + message.substring("Content-Type".length()).trim() + ")");
        }
        return error(HttpStatus.BAD_REQUEST, ReadableErrors.apiMessage(e));
    }

    /**
     * @return 400 naming the field that could not be read, or {@code body}; 413 when the body is too large; 408 when it
     *     took too long to arrive
     */
    @ExceptionHandler(HttpMessageNotReadableException.class)
    public ResponseEntity<Map<String, String>> unreadable(HttpMessageNotReadableException e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof RequestBodyTooLargeException tooLarge) {
                return error(HttpStatus.PAYLOAD_TOO_LARGE, tooLarge.getMessage());
            }
            if (cause instanceof RequestBodyTimeoutException slow) {
                return error(HttpStatus.REQUEST_TIMEOUT, slow.getMessage());
            }
        }
        return error(HttpStatus.BAD_REQUEST, ReadableErrors.describe(e));
    }

    /** @return 413: the payload is larger than the server's limit */
    @ExceptionHandler(PayloadTooLargeException.class)
    public ResponseEntity<Map<String, String>> payloadTooLarge(PayloadTooLargeException e) {
        return error(HttpStatus.PAYLOAD_TOO_LARGE, e.getMessage());
    }

    /** @return 403: the token lacks the right or the topic */
    @ExceptionHandler(AccessDeniedException.class)
    public ResponseEntity<Map<String, String>> forbidden(AccessDeniedException e) {
        return error(HttpStatus.FORBIDDEN, e.getMessage());
    }

    /** @return 415: the request's charset is not one Java knows */
    @ExceptionHandler({UnsupportedCharsetException.class, IllegalCharsetNameException.class})
    public ResponseEntity<Map<String, String>> unknownCharset(IllegalArgumentException e) {
        return error(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Content-Type: unsupported charset " + e.getMessage());
    }

    /** @return 400 naming the path or query parameter */
    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    public ResponseEntity<Map<String, String>> typeMismatch(MethodArgumentTypeMismatchException e) {
        return error(
                HttpStatus.BAD_REQUEST,
                e.getName() + ": must be "
                        + (e.getRequiredType() == int.class ? "an integer" : "a " + e.getRequiredType()) + ", got '"
                        + e.getValue() + "'");
    }

    /** @return 400 naming the missing query parameter */
    @ExceptionHandler(MissingServletRequestParameterException.class)
    public ResponseEntity<Map<String, String>> missingParameter(MissingServletRequestParameterException e) {
        return error(HttpStatus.BAD_REQUEST, e.getParameterName() + ": required");
    }

    /** @return 404 */
    @ExceptionHandler(NotFoundException.class)
    public ResponseEntity<Map<String, String>> notFound(NotFoundException e) {
        return error(HttpStatus.NOT_FOUND, e.getMessage());
    }

    /** @return 404 for a path the API does not have */
    @ExceptionHandler({NoResourceFoundException.class, NoHandlerFoundException.class})
    public ResponseEntity<Map<String, String>> noSuchPath(Exception e) {
        return error(HttpStatus.NOT_FOUND, "path: no such endpoint");
    }

    /** @return 405 */
    @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
    public ResponseEntity<Map<String, String>> wrongMethod(HttpRequestMethodNotSupportedException e) {
        return error(HttpStatus.METHOD_NOT_ALLOWED, "method: " + e.getMethod() + " is not supported here");
    }

    /**
     * @return 415 naming what was sent: no {@code Content-Type}, another type, or a charset Java does not know (which
     *     Spring cannot even parse, so the header is read as sent)
     */
    @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
    public ResponseEntity<Map<String, String>> notJson(
            HttpMediaTypeNotSupportedException e, HttpServletRequest request) {
        String sent = request.getHeader("Content-Type");
        if (sent == null || sent.isBlank()) {
            return error(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Content-Type: must be application/json, got none");
        }
        String shown = sent.length() > 200 ? sent.substring(0, 200) + "..." : sent;
        Matcher charset = CHARSET.matcher(sent);
        if (charset.find() && !isKnownCharset(charset.group(1))) {
            return error(
                    HttpStatus.UNSUPPORTED_MEDIA_TYPE,
                    "Content-Type: unsupported charset '" + charset.group(1) + "' (got '" + shown
                            + "'); send application/json in UTF-8");
        }
        return error(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Content-Type: must be application/json, got '" + shown + "'");
    }

    private static boolean isKnownCharset(String name) {
        try {
            return Charset.isSupported(name);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * @return 409: the id exists, or is reserved by a job that ended within its idempotency window (then also
     *     {@code ended} and {@code endedAt}), and neither replace nor keep was asked
     */
    @ExceptionHandler(JobAlreadyExistsException.class)
    public ResponseEntity<Map<String, String>> exists(JobAlreadyExistsException e) {
        ResponseEntity<Map<String, String>> answer = error(HttpStatus.CONFLICT, "id: " + e.getMessage());
        ScheduleResult existing = e.existing();
        if (existing.ended() == null) {
            return answer;
        }
        return ResponseEntity.status(answer.getStatusCode())
                .headers(answer.getHeaders())
                .body(Map.of(
                        "error", answer.getBody().get("error"),
                        "ended", existing.ended().name(),
                        "endedAt", existing.endedAt().toString()));
    }

    /** @return 409: the receipt is not the job's current delivery */
    @ExceptionHandler(StaleReceiptException.class)
    public ResponseEntity<Map<String, String>> stale(StaleReceiptException e) {
        return error(HttpStatus.CONFLICT, "receipt: " + e.getMessage());
    }

    /**
     * @return 503 with {@code Retry-After: 1}; when too few replicas confirmed a write ({@code --wait-for-replicas}), a
     *     message that says the write was applied, so that the client retries with {@code onConflict=keep} and creates
     *     no second job
     */
    @ExceptionHandler({RedisUnavailableException.class, AsyncRequestTimeoutException.class})
    public ResponseEntity<Map<String, String>> unavailable(Exception e) {
        log.warn("answering 503: {}", e.getMessage());
        Matcher replicas = TOO_FEW_REPLICAS.matcher(String.valueOf(e.getMessage()));
        if (e instanceof RedisUnavailableException && replicas.find()) {
            return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                    .header("Retry-After", "1")
                    .body(Map.of(
                            "error",
                            "replication: the write WAS applied (a new job was written) by the Redis primary, but only "
                                    + replicas.group(2) + " of " + replicas.group(3)
                                    + " replicas confirmed it within " + replicas.group(4)
                                    + " ms (--wait-for-replicas), so a failover could still lose it; retry the same"
                                    + " request with the same id and onConflict=keep, which does not create a"
                                    + " second job"));
        }
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                .header("Retry-After", "1")
                .body(Map.of("error", "redis: " + e.getMessage()));
    }

    /**
     * @return 503 with {@code Retry-After: 5}: the cold tier's PostgreSQL did not answer (a job due beyond the horizon
     *     was not stored, or a lookup, cancel or reschedule could not see the cold tier; nothing was changed there)
     */
    @ExceptionHandler(ColdTierUnavailableException.class)
    public ResponseEntity<Map<String, String>> coldTierUnavailable(ColdTierUnavailableException e) {
        log.warn("answering 503: {}", e.getMessage());
        return databaseUnavailable("tier: " + e.getMessage());
    }

    /** @return 503 with {@code Retry-After: 5}, for a PostgreSQL (the history's, the cold tier's) that failed */
    static ResponseEntity<Map<String, String>> databaseUnavailable(String message) {
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                .header("Retry-After", "5")
                .body(Map.of("error", message));
    }

    /**
     * @return 409: the job's state forbids the operation (reschedule of a dead job, requeue of a live one, run now of
     *     an active or dead one)
     */
    @ExceptionHandler(HourglassException.class)
    public ResponseEntity<Map<String, String>> conflict(HourglassException e) {
        return error(HttpStatus.CONFLICT, "state: " + e.getMessage());
    }

    /** @return the status Spring gives its own web exceptions, or 500, logged: a defect, not bad input */
    @ExceptionHandler(Exception.class)
    public ResponseEntity<Map<String, String>> unexpected(Exception e) {
        if (e instanceof ErrorResponse spring && !spring.getStatusCode().is5xxServerError()) {
            return ResponseEntity.status(spring.getStatusCode())
                    .body(Map.of("error", "request: " + spring.getBody().getDetail()));
        }
        log.error("unexpected failure", e);
        return error(
                HttpStatus.INTERNAL_SERVER_ERROR,
                "server: internal error (" + e.getClass().getSimpleName() + ")");
    }

    /**
     * The error answer; with {@code Connection: close} when the request's body was not read to its end (an early
     * answer, e.g. 403 before the body is parsed), so that Tomcat keeps no thread to read and discard it.
     */
    private static ResponseEntity<Map<String, String>> error(HttpStatus status, String message) {
        ResponseEntity.BodyBuilder answer = ResponseEntity.status(status);
        if (RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes attributes
                && bodyUnread(attributes.getRequest())) {
            answer.header("Connection", "close");
        }
        return answer.body(Map.of("error", message));
    }

    private static boolean bodyUnread(HttpServletRequest request) {
        if (request.getContentLengthLong() <= 0 && request.getHeader("Transfer-Encoding") == null) {
            return false;
        }
        try {
            return !request.getInputStream().isFinished();
        } catch (IllegalStateException e) {
            return false; // read through getReader(), to its end or to the failure being answered
        } catch (IOException e) {
            return true;
        }
    }
}
