package io.hourglass.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Conversions between the strings Hourglass speaks and the bytes Redis replies and arguments are made of. */
final class Bytes {
    private Bytes() {}

    /** The UTF-8 bytes of {@code s}. */
    static byte[] of(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The UTF-8 bytes of a number's decimal text, as scripts take numbers. */
    static byte[] of(long n) {
        return of(Long.toString(n));
    }

    /** A reply element as a string: bytes decoded as UTF-8, anything else (a Long) as its text. */
    static String str(Object o) {
        return o instanceof byte[] ? new String((byte[]) o, StandardCharsets.UTF_8) : String.valueOf(o);
    }

    /** Each element of a reply as a string (see {@link #str}). */
    static List<String> strings(List<Object> reply) {
        List<String> out = new ArrayList<>(reply.size());
        for (Object o : reply) {
            out.add(str(o));
        }
        return out;
    }

    /** A flat reply cut into consecutive groups of {@code size} elements. */
    static List<List<Object>> groups(List<Object> reply, int size) {
        List<List<Object>> out = new ArrayList<>(reply.size() / size);
        for (int i = 0; i + size <= reply.size(); i += size) {
            out.add(reply.subList(i, i + size));
        }
        return out;
    }
}
