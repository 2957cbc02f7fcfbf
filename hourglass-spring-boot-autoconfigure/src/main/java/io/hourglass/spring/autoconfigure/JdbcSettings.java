package io.hourglass.spring.autoconfigure;

import java.util.function.Supplier;

/** Checks of the {@code hourglass.history.*} and {@code hourglass.tier.*} properties, failing with their names. */
final class JdbcSettings {
    private JdbcSettings() {}

    /**
     * @param property the JDBC URL's property, named in the error
     * @param jdbc its settings
     * @return the trimmed URL
     * @throws IllegalStateException naming the property when the URL is not a PostgreSQL JDBC URL (shown masked)
     */
    static String postgresUrl(String property, HourglassProperties.Jdbc jdbc) {
        String url = jdbc.getUrl().trim();
        if (!url.startsWith("jdbc:postgresql:")) {
            throw new IllegalStateException(property
                    + ": must be a PostgreSQL JDBC URL such as jdbc:postgresql://host:5432/database, got '"
                    + HourglassProperties.Jdbc.maskJdbcUrl(url) + "'");
        }
        return url;
    }

    /** @return the value, or null when blank */
    static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }

    /**
     * Runs a builder's setter, turning its {@link IllegalArgumentException} ({@code "batchSize: must be …"}) into one
     * that names the property instead of the builder's field.
     *
     * @param property the property, e.g. {@code hourglass.tier.feeder.batch-size}
     * @param set the setter call
     * @return what it returned
     * @throws IllegalStateException {@code "<property>: must be …"}
     */
    static <T> T named(String property, Supplier<T> set) {
        try {
            return set.get();
        } catch (IllegalArgumentException e) {
            String message = String.valueOf(e.getMessage());
            int colon = message.indexOf(": ");
            throw new IllegalStateException(property + ": " + (colon < 0 ? message : message.substring(colon + 2)), e);
        }
    }
}
