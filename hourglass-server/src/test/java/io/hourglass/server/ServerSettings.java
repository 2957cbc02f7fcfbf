package io.hourglass.server;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The Spring arguments ({@code --hourglass.x=y}) with which {@link ServerTestSupport} starts the server of a test
 * class, besides the port, Redis and namespace. Without this annotation the server runs with
 * {@code --hourglass.insecure=true} (no tokens).
 */
@Documented
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@interface ServerSettings {
    /** @return the arguments */
    String[] value();
}
