package io.hourglass.bench.workloads;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * The CPU time a local PostgreSQL's processes have used so far: its postmaster, every live backend and worker, and the
 * children it has reaped, read from Linux's {@code /proc} (user and system time, in clock ticks of 10 ms). Not
 * thread-safe.
 */
final class PostgresCpu {
    /** {@code USER_HZ}: 100 on every Linux the bench runs on. */
    private static final long TICKS_PER_SECOND = 100;

    private final long postmasterPid;

    private PostgresCpu(long postmasterPid) {
        this.postmasterPid = postmasterPid;
    }

    /**
     * @param database a connection to it, as a superuser (to read {@code data_directory})
     * @return a reader, or one that answers -1 where there is no {@code /proc}
     * @throws SQLException when the database cannot be asked
     */
    static PostgresCpu of(DataSource database) throws SQLException {
        try (Connection c = database.getConnection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SHOW data_directory")) {
            r.next();
            Path pidFile = Path.of(r.getString(1), "postmaster.pid");
            if (!Files.isDirectory(Path.of("/proc")) || !Files.exists(pidFile)) {
                return new PostgresCpu(-1);
            }
            return new PostgresCpu(
                    Long.parseLong(Files.readAllLines(pidFile).get(0).trim()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the CPU time used so far, µs; -1 when it cannot be read */
    long micros() {
        if (postmasterPid < 0) {
            return -1;
        }
        long ticks = ticks(postmasterPid, true);
        for (ProcessHandle child : ProcessHandle.of(postmasterPid)
                .map(p -> p.descendants().toList())
                .orElse(java.util.List.of())) {
            ticks += ticks(child.pid(), false);
        }
        return ticks * 1_000_000 / TICKS_PER_SECOND;
    }

    /** utime + stime, with {@code reaped} also cutime + cstime (fields 14 to 17 of {@code /proc/<pid>/stat}). */
    private static long ticks(long pid, boolean reaped) {
        String stat;
        try {
            stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        } catch (IOException e) {
            // Gone since it was listed: its time is now its parent's cutime.
            return 0;
        }
        // Field 3 (the state) follows the command name's closing parenthesis; the name may hold spaces.
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        long t = Long.parseLong(f[11]) + Long.parseLong(f[12]);
        if (reaped) {
            t += Long.parseLong(f[13]) + Long.parseLong(f[14]);
        }
        return t;
    }
}
