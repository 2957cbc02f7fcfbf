package io.hourglass.spring.autoconfigure;

import java.util.List;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when neither {@code hourglass.redis.uri} nor {@code hourglass.redis.cluster-nodes} is set: the starters'
 * mapping of the application's Spring Data Redis settings applies only then.
 */
public class NoHourglassRedisPropertiesCondition extends SpringBootCondition {

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        Binder binder = Binder.get(context.getEnvironment());
        boolean uri =
                !binder.bind("hourglass.redis.uri", String.class).orElse("").isBlank();
        boolean nodes = !binder.bind("hourglass.redis.cluster-nodes", Bindable.listOf(String.class))
                .orElse(List.of())
                .isEmpty();
        if (uri || nodes) {
            return ConditionOutcome.noMatch("hourglass.redis." + (uri ? "uri" : "cluster-nodes") + " is set");
        }
        return ConditionOutcome.match("neither hourglass.redis.uri nor hourglass.redis.cluster-nodes is set");
    }
}
