package io.hourglass.cli;

import org.postgresql.ds.PGSimpleDataSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/** Connections to a PostgreSQL that a command reads (the job history, the cold tier): one at a time, never pooled. */
final class PostgresConnection {
    private PostgresConnection() {}

    /**
     * @param spec the command, for its usage errors
     * @param option the URL's option, e.g. {@code --history-jdbc-url}, named in the errors
     * @param url the JDBC URL given, or null
     * @param user the database user, or null or blank for the URL's
     * @param password the password, or null or empty for none
     * @return a data source that connects within 5 s and waits at most 60 s for an answer
     * @throws CommandLine.ParameterException naming {@code option} when the URL is missing or not PostgreSQL's
     */
    static PGSimpleDataSource dataSource(CommandSpec spec, String option, String url, String user, String password) {
        if (url == null || url.isBlank()) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    option + ": required (or " + HourglassCli.EnvironmentDefaults.variable(option) + ")");
        }
        if (!url.trim().startsWith("jdbc:postgresql:")) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    option + ": must be a PostgreSQL JDBC URL such as jdbc:postgresql://host:5432/app");
        }
        PGSimpleDataSource database = new PGSimpleDataSource();
        try {
            database.setURL(url.trim());
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), option + ": " + e.getMessage());
        }
        if (user != null && !user.isBlank()) {
            database.setUser(user.trim());
        }
        if (password != null && !password.isEmpty()) {
            database.setPassword(password);
        }
        // A command answers or fails within seconds, like a Redis that cannot be reached.
        database.setConnectTimeout(5);
        database.setSocketTimeout(60);
        return database;
    }
}
