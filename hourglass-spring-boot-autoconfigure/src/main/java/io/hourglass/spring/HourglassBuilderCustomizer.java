package io.hourglass.spring;

import io.hourglass.HourglassBuilder;

/**
 * Changes the {@link HourglassBuilder} of the auto-configured {@link io.hourglass.Hourglass} bean, for what the
 * {@code hourglass.*} properties cannot say (an {@link io.hourglass.Backoff#exponential exponential} default backoff,
 * …). Declare one or more beans of this type; they run in {@link org.springframework.core.annotation.Order @Order}
 * after the properties have been applied, so a customizer wins over a property.
 *
 * <p>To observe the instance, declare {@link io.hourglass.JobEvents} beans rather than calling
 * {@link HourglassBuilder#events}: the auto-configuration hands every such bean (the Micrometer metrics among them) to
 * the builder, and a customizer's {@code events(…)} would replace them all.
 *
 * <pre>{@code
 * @Bean
 * HourglassBuilderCustomizer retryFast() {
 *   return builder -> builder.defaultBackoff(Backoff.exponential(Duration.ofSeconds(1), Duration.ofMinutes(5), 0.5));
 * }
 * }</pre>
 */
@FunctionalInterface
public interface HourglassBuilderCustomizer {

    /**
     * @param builder the builder, preset from the properties and the Redis connection; not null. Its setters throw
     *     {@link IllegalArgumentException} naming the field on a bad value, which fails the application's start-up.
     */
    void customize(HourglassBuilder builder);
}
