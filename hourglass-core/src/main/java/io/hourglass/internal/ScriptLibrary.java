package io.hourglass.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Every {@link Script} as one Redis Functions library (Redis 7.0+), so that the shared functions of {@code common.lua}
 * and {@code flow.lua} are made once, at load, rather than on every call as {@code EVALSHA} does (about 13 µs of an
 * empty claim's 38 on Redis 7.0.15, 35 of 85 at one call per ms).
 *
 * <p>The library is {@code common.lua} and {@code flow.lua} once, without the line that asks for effects replication
 * (functions always replicate effects) and with their per-call block (between {@code -- @per-call begin} and
 * {@code -- @per-call end}) moved into a function that each registered function runs first; then each script's body as
 * the function {@code hg<hash>_<script>}, flagged {@code no-writes} where the script only reads (so that reads still
 * run while Redis is over {@code maxmemory}). Its name carries a hash of its source, so clients of different versions
 * load libraries of their own on one Redis. Redis 7.0 runs a library's top level with no global but {@code redis},
 * which is why the shared files build no constant with {@code string}, {@code math} or {@code table}.
 *
 * <p>Immutable; not part of the public API.
 */
final class ScriptLibrary {
    private static final String INCLUDE = "-- @include ";
    private static final String PER_CALL_BEGIN = "-- @per-call begin\n";
    private static final String PER_CALL_END = "-- @per-call end\n";
    private static final String REPLICATE = "redis.replicate_commands()\n";
    /** What starts each function's registration, up to the {@code hg} of its name. */
    private static final String FUNCTION_NAME_START = "redis.register_function{function_name = 'hg";

    private final String source;
    /** Each script's function name, by {@link Script#ordinal()}: named once, not on every call. */
    private final String[] functionNames;

    private ScriptLibrary(String hash, String source) {
        this.source = source;
        this.functionNames = new String[Script.values().length];
        for (Script script : Script.values()) {
            functionNames[script.ordinal()] = functionName(hash, script);
        }
    }

    /** @return the library of the scripts of this build */
    static ScriptLibrary build() {
        String unnamed = text();
        String hash = sha1(unnamed).substring(0, 12);
        return new ScriptLibrary(
                hash,
                "#!lua name=hourglass_" + hash + "\n"
                        + unnamed.replace(FUNCTION_NAME_START, FUNCTION_NAME_START + hash));
    }

    /**
     * The library's text after its first line, its functions named without the hash ({@code hg_<script>}): the hash is
     * of this text, and {@link #build} puts it into the names after.
     */
    private static String text() {
        StringBuilder shared = new StringBuilder();
        String perCall = null;
        for (String file : new String[] {"common.lua", "flow.lua"}) {
            String text = read(file);
            int begin = text.indexOf(PER_CALL_BEGIN);
            if (begin >= 0) {
                int end = text.indexOf(PER_CALL_END, begin);
                if (end < 0 || perCall != null) {
                    throw new IllegalStateException(file + ": one per-call block, begun and ended, is expected");
                }
                perCall = text.substring(begin + PER_CALL_BEGIN.length(), end);
                text = text.substring(0, begin) + text.substring(end + PER_CALL_END.length());
            }
            shared.append(text.replace(REPLICATE, "")).append('\n');
        }
        if (perCall == null) {
            throw new IllegalStateException("common.lua has no per-call block");
        }
        StringBuilder out = new StringBuilder("local KEYS, ARGV\n")
                .append(shared)
                .append("local function begin_call(keys, args)\n  KEYS, ARGV = keys, args\n")
                .append(perCall)
                .append("end\n");
        for (Script script : Script.values()) {
            out.append(FUNCTION_NAME_START)
                    .append('_')
                    .append(baseName(script))
                    .append("', callback = function(keys, args)\n  begin_call(keys, args)\n");
            for (String line : read(script.fileName()).split("\n", -1)) {
                if (!line.startsWith(INCLUDE)) {
                    out.append(line).append('\n');
                }
            }
            out.append("end, flags = {")
                    .append(script.access() == Script.Access.READS ? "'no-writes'" : "")
                    .append("}}\n");
        }
        return out.toString();
    }

    /** @return the library's source, as {@code FUNCTION LOAD} takes it */
    String source() {
        return source;
    }

    /**
     * @param script a script
     * @return the name {@code FCALL} calls it by in this library
     */
    String functionName(Script script) {
        return functionNames[script.ordinal()];
    }

    private static String functionName(String hash, Script script) {
        return "hg" + hash + "_" + baseName(script);
    }

    private static String baseName(Script script) {
        return script.fileName().substring(0, script.fileName().length() - ".lua".length());
    }

    private static String sha1(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is missing from this JVM", e);
        }
    }

    private static String read(String file) {
        try (InputStream in = ScriptLibrary.class.getResourceAsStream("/io/hourglass/lua/" + file)) {
            if (in == null) {
                throw new IllegalArgumentException("no Lua script " + file);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
