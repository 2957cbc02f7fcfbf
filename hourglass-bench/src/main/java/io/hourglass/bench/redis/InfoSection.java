package io.hourglass.bench.redis;

import java.util.LinkedHashMap;
import java.util.Map;

/** The {@code key:value} lines of an {@code INFO} reply. */
record InfoSection(Map<String, String> fields) {

    static InfoSection parse(String info) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : info.split("\r?\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("#")) {
                fields.put(line.substring(0, colon), line.substring(colon + 1).trim());
            }
        }
        return new InfoSection(fields);
    }

    long longValue(String key) {
        return Long.parseLong(value(key));
    }

    double doubleValue(String key) {
        return Double.parseDouble(value(key));
    }

    String value(String key) {
        String value = fields.get(key);
        if (value == null) {
            throw new IllegalStateException("INFO has no " + key);
        }
        return value;
    }
}
