package io.hourglass.testkit;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The extension behind {@link PostgresTest}: one {@link PostgresProcess} per test class, closed with the class's
 * extension store. Thread-safe as JUnit drives it.
 */
public final class PostgresExtension implements BeforeAllCallback, ParameterResolver {
    private static final ExtensionContext.Namespace STORE = ExtensionContext.Namespace.create(PostgresExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        context.getStore(STORE).getOrComputeIfAbsent("server", k -> new Resource(), Resource.class);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == PostgresProcess.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        // Store lookups fall back to the class context's store, where beforeAll put the server.
        return context.getStore(STORE).get("server", Resource.class).process;
    }

    private static final class Resource implements ExtensionContext.Store.CloseableResource, AutoCloseable {
        final PostgresProcess process = PostgresProcess.startNew();

        @Override
        public void close() {
            process.close();
        }
    }
}
