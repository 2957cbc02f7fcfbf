package io.hourglass.server.api;

import io.hourglass.JobState;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** Reads and checks the operators' endpoints' query parameters and id lists, naming the field on error. */
final class AdminLimits {
    /** Most ids one bulk action on dead letters takes. */
    static final int MAX_IDS = 1000;

    /** The states the operators' endpoints purge: retained COMPLETED jobs are listed, not purged. */
    private static final JobState[] PURGED = {JobState.SCHEDULED, JobState.READY, JobState.ACTIVE, JobState.DEAD};
    /** The states the operators' endpoints list. */
    private static final JobState[] LISTED = JobState.values();

    private AdminLimits() {}

    /**
     * @param value the {@code state} parameter: {@code scheduled}, {@code ready}, {@code active} or {@code dead}, in
     *     any case
     * @return the state
     * @throws IllegalArgumentException naming {@code state} otherwise
     */
    static JobState state(String value) {
        return oneOf(PURGED, value);
    }

    /**
     * @param value the {@code state} parameter of a listing: one of {@link #state}'s or {@code completed}, in any case
     * @return the state
     * @throws IllegalArgumentException naming {@code state} otherwise
     */
    static JobState listedState(String value) {
        return oneOf(LISTED, value);
    }

    private static JobState oneOf(JobState[] states, String value) {
        for (JobState s : states) {
            if (s.name().equalsIgnoreCase(value)) {
                return s;
            }
        }
        throw new IllegalArgumentException("state: must be one of "
                + Arrays.stream(states)
                        .map(s -> s.name().toLowerCase(Locale.ROOT))
                        .collect(Collectors.joining(", "))
                + ", got '" + shown(value) + "'");
    }

    /**
     * @param field the field's name, for the message
     * @param ids the ids given
     * @return the ids
     * @throws IllegalArgumentException naming {@code field} when there are none or more than {@link #MAX_IDS}
     */
    static <C extends Collection<String>> C ids(String field, C ids) {
        if (ids.isEmpty() || ids.size() > MAX_IDS) {
            throw new IllegalArgumentException(
                    field + ": must hold 1 to " + MAX_IDS + " ids, got " + ids.size() + (ids.isEmpty() ? "" : " ids"));
        }
        return ids;
    }

    /**
     * Refuses query parameters other than {@code allowed}, so that a misspelt filter of a bulk action (say
     * {@code ?ids=} for {@code ?id=}) cannot widen it to every job.
     *
     * @throws IllegalArgumentException naming the first unknown parameter
     */
    static void onlyParameters(HttpServletRequest request, String... allowed) {
        List<String> known = List.of(allowed);
        for (String name : request.getParameterMap().keySet()) {
            if (!known.contains(name)) {
                throw new IllegalArgumentException((name.isEmpty() ? "query" : shown(name))
                        + ": unknown parameter; this endpoint takes "
                        + (known.isEmpty() ? "none" : String.join(", ", known)));
            }
        }
    }

    private static String shown(String value) {
        return value.length() > 100 ? value.substring(0, 100) + "..." : value;
    }
}
