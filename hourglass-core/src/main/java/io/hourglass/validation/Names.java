package io.hourglass.validation;

import java.net.URI;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * Checks of names and options that reach Redis keys or job records. Topics and namespaces become part of key names and
 * ids become hash fields, so their character sets keep them from breaking out of a hash tag or a record header (no key
 * injection). Every failure is an {@link IllegalArgumentException} whose message starts with the field's name. Also
 * makes the ids of jobs scheduled without one.
 */
public final class Names {
    /** Upper bound of maxAttempts. */
    public static final int MAX_ATTEMPTS = 10_000;
    /** Upper bound of a lease. */
    public static final Duration MAX_LEASE = Duration.ofHours(24);

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");
    /** A job id, or a failure notice's: a job id followed by {@link #FAILURE_NOTICE_SUFFIX}. */
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}(?::failure)?");
    /**
     * The end of a failure notice's id, which scheduled jobs' ids cannot have (the same text as
     * {@code StorageFormat.FAILURE_NOTICE_SUFFIX}, which this package cannot import).
     */
    public static final String FAILURE_NOTICE_SUFFIX = ":failure";

    private static final int MAX_URL_LENGTH = 2048;
    private static final SecureRandom ID_BITS = new SecureRandom();
    private static final Base64.Encoder ID_TEXT = Base64.getUrlEncoder().withoutPadding();

    private Names() {}

    /** @return {@code topic}, when it is 1 to 100 of {@code [A-Za-z0-9._-]} starting with a letter or digit */
    public static String checkTopic(String topic) {
        return checkName(topic, "topic");
    }

    /** @return {@code namespace}, under the same rule as a topic */
    public static String checkNamespace(String namespace) {
        return checkName(namespace, "namespace");
    }

    /** @return {@code name}, a recurring schedule's name, under the same rule as a topic */
    public static String checkScheduleName(String name) {
        return checkName(name, "name");
    }

    private static String checkName(String name, String field) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(field + ": must be 1 to 100 characters of [A-Za-z0-9._-] starting with a"
                    + " letter or digit, got " + quote(name));
        }
        return name;
    }

    /**
     * @return {@code id}, when it is 1 to 128 of {@code [A-Za-z0-9._:-]}, or such an id followed by
     *     {@value #FAILURE_NOTICE_SUFFIX} (a failure notice's, which Hourglass names after its job)
     */
    public static String checkId(String id) {
        if (id == null || !ID.matcher(id).matches()) {
            throw new IllegalArgumentException("id: must be 1 to 128 characters of [A-Za-z0-9._:-], got " + quote(id));
        }
        return id;
    }

    /** @return {@code id}, when {@link #checkId} accepts it and it does not end in {@value #FAILURE_NOTICE_SUFFIX} */
    public static String checkNewId(String id) {
        checkId(id);
        if (id.endsWith(FAILURE_NOTICE_SUFFIX)) {
            throw new IllegalArgumentException("id: must not end in '" + FAILURE_NOTICE_SUFFIX
                    + "', which names the failure notice of the job before it, got " + quote(id));
        }
        return id;
    }

    /** Random bits in a generated id ({@link #newId()}). */
    public static final int NEW_ID_BITS = 72;
    /**
     * Random bits in a generated id that no conflict check covers ({@link #newId(int)}): as unlikely to repeat as a
     * random UUID's 122.
     */
    public static final int UNCHECKED_NEW_ID_BITS = 128;

    /**
     * A new job id: {@value #NEW_ID_BITS} random bits as 12 URL-safe Base64 characters. Redis keeps a job's id twice
     * (in its sorted set and in the records' hash), and a gone job's once more while its idempotency window lasts, each
     * copy a string of its own: up to 12 characters fit jemalloc's 16-byte size class, where the 22 characters of 128
     * bits take the 32-byte one, so these ids save 32 bytes per job. Two ids drawn so are equal with a chance of 2^-72,
     * so an id is only short where a schedule checks it: a schedule with a generated id rejects a taken one (a job or a
     * reserved id of its topic) and draws again, so a repeat costs one more call and never keeps or replaces the other
     * job. Such an id is unique among its topic's jobs and reserved ids, not across topics or all time: among a billion
     * ids, two are equal with a chance of about 10^-4. A caller who keys records of its own by job id, across topics or
     * for longer than the idempotency window, gives its own ids.
     *
     * @return an id that {@link #checkId} accepts; thread-safe
     */
    public static String newId() {
        return newId(NEW_ID_BITS);
    }

    /**
     * A new job id of {@code bits} random bits in URL-safe Base64 ({@code ceil(bits / 6)} characters). Never starts
     * with {@code '-'}, which a command line (the CLI's {@code get ID}) would read as an option: one draw in 64 does,
     * and is drawn again.
     *
     * @param bits 8 to 768, a multiple of 8: {@link #NEW_ID_BITS} where the schedule checks the id against the jobs it
     *     could meet, {@link #UNCHECKED_NEW_ID_BITS} where it does not (a cold tier's jobs are not looked up)
     * @return an id that {@link #checkId} accepts; thread-safe
     * @throws IllegalArgumentException naming {@code bits} when out of range
     */
    public static String newId(int bits) {
        if (bits < 8 || bits > 768 || bits % 8 != 0) {
            throw new IllegalArgumentException("bits: must be a multiple of 8 from 8 to 768, got " + bits);
        }
        byte[] random = new byte[bits / 8];
        do {
            ID_BITS.nextBytes(random);
        } while ((random[0] & 0xFC) == 0xF8); // its first six bits 111110: Base64's '-'
        return ID_TEXT.encodeToString(random);
    }

    /** @return {@code maxAttempts}, when it is 1 to {@value #MAX_ATTEMPTS} */
    public static int checkMaxAttempts(int maxAttempts) {
        if (maxAttempts < 1 || maxAttempts > MAX_ATTEMPTS) {
            throw new IllegalArgumentException(
                    "maxAttempts: must be between 1 and " + MAX_ATTEMPTS + ", got " + maxAttempts);
        }
        return maxAttempts;
    }

    /** @return {@code lease}, when it is 1 ms to 24 h; {@code field} names it in the error */
    public static Duration checkLease(Duration lease, String field) {
        if (lease == null || lease.toMillis() < 1 || lease.compareTo(MAX_LEASE) > 0) {
            throw new IllegalArgumentException(field + ": must be between 1 ms and 24 h, got " + lease);
        }
        return lease;
    }

    /** Longest idempotency window accepted: 366 days. */
    public static final Duration MAX_IDEMPOTENCY_WINDOW = Duration.ofDays(366);

    /**
     * @param window how long a job's id stays reserved once the job is gone
     * @param field the name the error message gives the value
     * @return {@code window}, when it is 0 (off) to {@link #MAX_IDEMPOTENCY_WINDOW}, whole milliseconds
     * @throws IllegalArgumentException naming {@code field} otherwise (null included)
     */
    public static Duration checkIdempotencyWindow(Duration window, String field) {
        if (window == null || window.isNegative() || window.compareTo(MAX_IDEMPOTENCY_WINDOW) > 0) {
            throw new IllegalArgumentException(field + ": must be between 0 (off) and 366 days, got " + window);
        }
        return window;
    }

    /**
     * @return {@code url}, when it is an absolute http(s) URL with a host, at most 2048 characters, without a {@code |}
     *     or a newline (it goes into a record header)
     */
    public static URI checkCallbackUrl(URI url) {
        return checkCallbackUrl(url, "callbackUrl");
    }

    /** As {@link #checkCallbackUrl(URI)}, naming {@code field} in the error. */
    public static URI checkCallbackUrl(URI url, String field) {
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(java.util.Locale.ROOT);
        String text = url.toString();
        if (!(scheme.equals("http") || scheme.equals("https"))
                || url.getHost() == null
                || !url.isAbsolute()
                || text.length() > MAX_URL_LENGTH
                || text.indexOf('|') >= 0
                || text.indexOf('\n') >= 0) {
            throw new IllegalArgumentException(field + ": must be an absolute http or https URL with a host, at most "
                    + MAX_URL_LENGTH + " characters, got " + quote(text));
        }
        return url;
    }

    private static String quote(String s) {
        if (s == null) {
            return "null";
        }
        return "'" + (s.length() > 140 ? s.substring(0, 140) + "..." : s) + "'";
    }
}
