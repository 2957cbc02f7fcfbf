package io.hourglass.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

@PostgresTest
class PostgresProcessIntegrationTests {

    @Test
    void aRealPostgresKeepsItsDataAcrossARestartAndRefusesConnectionsWhileStopped(PostgresProcess postgres)
            throws SQLException {
        try (Connection c = connect(postgres);
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE kept (v text)");
            s.execute("INSERT INTO kept VALUES ('before restart')");
            try (ResultSet r = s.executeQuery("SELECT current_setting('server_version_num')::int")) {
                r.next();
                assertThat(r.getInt(1)).isGreaterThanOrEqualTo(140000);
            }
        }

        postgres.stop();
        assertThat(postgres.running()).isFalse();
        assertThatThrownBy(() -> connect(postgres).close()).isInstanceOf(SQLException.class);

        postgres.start();
        try (Connection c = connect(postgres);
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT v FROM kept")) {
            assertThat(r.next()).isTrue();
            assertThat(r.getString(1)).isEqualTo("before restart");
        }
    }

    private static Connection connect(PostgresProcess postgres) throws SQLException {
        return DriverManager.getConnection(postgres.jdbcUrl(), postgres.user(), "");
    }
}
