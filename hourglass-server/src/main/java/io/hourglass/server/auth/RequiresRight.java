package io.hourglass.server.auth;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The rights of which a caller needs one, on the topic of the request's path ({@code {topic}}), to call an endpoint. An
 * endpoint without this annotation (and without {@link PublicEndpoint}) needs {@link Right#ADMIN}.
 */
@Documented
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
public @interface RequiresRight {
    /** @return the rights of which one suffices; {@link Right#ADMIN} always does */
    Right[] value();
}
