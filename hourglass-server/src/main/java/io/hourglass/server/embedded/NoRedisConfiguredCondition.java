package io.hourglass.server.embedded;

import io.hourglass.server.HourglassServerProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when no Redis is configured ({@link HourglassServerProperties#embeddedRedis()}: no {@code --redis}), so the
 * server runs its own.
 */
public class NoRedisConfiguredCondition implements Condition {

    @Override
    public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
        return Binder.get(context.getEnvironment())
                .bindOrCreate("hourglass", HourglassServerProperties.class)
                .embeddedRedis();
    }
}
