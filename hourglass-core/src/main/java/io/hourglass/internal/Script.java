package io.hourglass.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The Lua scripts, one per transition (BullMQ's layout), loaded from {@code io/hourglass/lua}. A line
 * {@code -- @include common.lua} is replaced by that file, so shared code is written once.
 */
public enum Script {
    SCHEDULE("schedule"),
    CLAIM("claim"),
    ACK("ack"),
    NACK("nack"),
    EXTEND("extend"),
    RELEASE("release"),
    CANCEL("cancel"),
    RESCHEDULE("reschedule"),
    REQUEUE("requeue"),
    GET("get"),
    STATS("stats"),
    DEAD("dead"),
    OVERVIEW("overview"),
    JOBS("jobs"),
    HISTORY("history"),
    PAUSE("pause"),
    RUN_NOW("run_now"),
    DEAD_BULK("dead_bulk"),
    PURGE("purge");

    private static final String INCLUDE = "-- @include ";

    private final String fileName;
    private final byte[] source;
    private final String sha;

    Script(String name) {
        this.fileName = name + ".lua";
        this.source = expand(read(fileName)).getBytes(StandardCharsets.UTF_8);
        this.sha = sha1(source);
    }

    public String fileName() {
        return fileName;
    }

    public byte[] source() {
        return source;
    }

    public String sha() {
        return sha;
    }

    private static String expand(String text) {
        StringBuilder out = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            if (line.startsWith(INCLUDE)) {
                out.append(read(line.substring(INCLUDE.length()).trim())).append('\n');
            } else {
                out.append(line).append('\n');
            }
        }
        return out.toString();
    }

    private static String read(String file) {
        try (InputStream in = Script.class.getResourceAsStream("/io/hourglass/lua/" + file)) {
            if (in == null) {
                throw new IllegalStateException("missing Lua script " + file);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String sha1(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
