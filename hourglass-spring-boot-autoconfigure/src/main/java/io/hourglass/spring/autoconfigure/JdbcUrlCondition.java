package io.hourglass.spring.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when a JDBC URL property is set and not blank, so that {@code url=${HISTORY_URL:}} leaves the feature off,
 * which {@code @ConditionalOnProperty} (it matches any value but {@code false}) would not.
 */
abstract class JdbcUrlCondition extends SpringBootCondition {
    private final String property;

    JdbcUrlCondition(String property) {
        this.property = property;
    }

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        String url = context.getEnvironment().getProperty(property);
        return url != null && !url.isBlank()
                ? ConditionOutcome.match(property + " is set")
                : ConditionOutcome.noMatch(property + " is not set");
    }

    /** {@code hourglass.history.jdbc.url} is set. */
    static final class History extends JdbcUrlCondition {
        History() {
            super("hourglass.history.jdbc.url");
        }
    }

    /** {@code hourglass.tier.jdbc.url} is set. */
    static final class Tier extends JdbcUrlCondition {
        Tier() {
            super("hourglass.tier.jdbc.url");
        }
    }
}
