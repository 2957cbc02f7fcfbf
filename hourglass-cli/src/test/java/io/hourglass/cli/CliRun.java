package io.hourglass.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Map;

/** One run of the command line in this JVM: its exit code, stdout and stderr. */
record CliRun(int exitCode, String out, String err) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Runs the command line with the given environment (never the process's). */
    static CliRun of(Map<String, String> environment, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = HourglassCli.execute(args, environment, new PrintWriter(out), new PrintWriter(err));
        return new CliRun(code, out.toString(), err.toString());
    }

    /** @return stdout parsed as JSON */
    JsonNode json() {
        try {
            return JSON.readTree(out);
        } catch (IOException e) {
            throw new UncheckedIOException("stdout is not JSON: " + out + "\nstderr: " + err, e);
        }
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
}
