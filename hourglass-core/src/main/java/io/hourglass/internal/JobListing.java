package io.hourglass.internal;

import io.hourglass.Inspector;
import io.hourglass.JobPage;
import io.hourglass.JobState;
import io.hourglass.JobSummary;
import io.hourglass.validation.Names;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;

/**
 * The inspector's paged listing of a topic's jobs in one state ({@link Inspector#jobs}): one page per shard
 * ({@code jobs.lua}), merged in (score, id) order, and the cursor that says where the next page starts. Thread-safe.
 */
final class JobListing {
    private static final Base64.Encoder CURSOR_TEXT = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder CURSOR_BYTES = Base64.getUrlDecoder();

    private final ShardCalls calls;

    JobListing(ShardCalls calls) {
        this.calls = calls;
    }

    /** See {@link Inspector#jobs}. */
    JobPage jobs(String topic, JobState state, String cursor, int limit) {
        Names.checkTopic(topic);
        if (state != JobState.COMPLETED) {
            checkState(state);
        }
        if (limit < 1 || limit > Inspector.MAX_PAGE) {
            throw new IllegalArgumentException("limit: must be between 1 and " + Inspector.MAX_PAGE + ", got " + limit);
        }
        Cursor after = cursor == null ? null : Cursor.decode(cursor, state);
        byte[][] args = {
            Bytes.of(state.name()),
            Bytes.of(after == null ? "" : Long.toString(after.score())),
            Bytes.of(after == null ? "" : after.id()),
            Bytes.of(limit),
            Bytes.of(Inspector.PREVIEW_BYTES)
        };
        record Entry(long score, JobSummary job) {}
        List<Entry> all = new ArrayList<>();
        boolean more = false;
        // A COMPLETED job's entry goes on with its completion time.
        int fields = state == JobState.COMPLETED ? 7 : 6;
        for (List<Object> reply : calls.onEveryShard(Script.JOBS, topic, "list jobs", args)) {
            more |= (Long) reply.get(0) == 1;
            for (int i = 1; i + fields - 1 < reply.size(); i += fields) {
                long score = (Long) reply.get(i + 1);
                Long completedAt = fields == 7 ? (Long) reply.get(i + 6) : null;
                all.add(new Entry(
                        score,
                        summary(
                                state,
                                Bytes.str(reply.get(i)),
                                score,
                                (byte[]) reply.get(i + 2),
                                (Long) reply.get(i + 3),
                                (byte[]) reply.get(i + 4),
                                Bytes.str(reply.get(i + 5)),
                                completedAt)));
            }
        }
        all.sort(Comparator.comparingLong(Entry::score)
                .thenComparing(e -> e.job().id()));
        more |= all.size() > limit;
        List<JobSummary> page = all.stream().limit(limit).map(Entry::job).toList();
        String next = null;
        if (more && !page.isEmpty()) {
            Entry last = all.get(page.size() - 1);
            next = new Cursor(state, last.score(), last.job().id()).encode();
        }
        return new JobPage(page, next);
    }

    private static JobSummary summary(
            JobState state,
            String id,
            long score,
            byte[] header,
            long size,
            byte[] preview,
            String error,
            Long completedAt) {
        byte[] raw = new byte[header.length + 1];
        System.arraycopy(header, 0, raw, 0, header.length);
        raw[header.length] = '\n';
        JobRecord r = JobRecord.decode(raw);
        return new JobSummary(
                id,
                state,
                Instant.ofEpochMilli(r.dueMs()),
                r.attempt(state == JobState.ACTIVE || state == JobState.COMPLETED),
                r.maxAttempts(),
                error.isEmpty() ? null : error,
                state == JobState.ACTIVE ? Instant.ofEpochMilli(score) : null,
                state == JobState.DEAD ? Instant.ofEpochMilli(score) : null,
                (int) size,
                preview,
                previewText(preview, size > preview.length),
                r.priority(),
                completedAt == null ? null : Instant.ofEpochMilli(completedAt));
    }

    /** The preview as UTF-8 text, or null; a character that the preview's end cuts off is dropped, not an error. */
    static String previewText(byte[] preview, boolean cut) {
        CharsetDecoder decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(preview);
        CharBuffer out = CharBuffer.allocate(preview.length);
        // Not at the end of input when cut: an incomplete last character is left unread instead of refused.
        if (decoder.decode(in, out, !cut).isError()) {
            return null;
        }
        return out.flip().toString();
    }

    /** Refuses a null state and COMPLETED (the purge takes one of the four; the listing also takes COMPLETED). */
    static void checkState(JobState state) {
        // A COMPLETED job is kept in the idempotency window's storage, which no bulk action deletes.
        if (state == null || state == JobState.COMPLETED) {
            throw new IllegalArgumentException("state: must be one of SCHEDULED, READY, ACTIVE, DEAD, got " + state);
        }
    }

    /** Where a page ends: the last job's score and id, and the state the page listed. */
    record Cursor(JobState state, long score, String id) {
        String encode() {
            return CURSOR_TEXT.encodeToString(Bytes.of(state.name() + ":" + score + ":" + id));
        }

        static Cursor decode(String text, JobState state) {
            try {
                String[] parts = new String(CURSOR_BYTES.decode(text), StandardCharsets.UTF_8).split(":", 3);
                Cursor c = new Cursor(JobState.valueOf(parts[0]), Long.parseLong(parts[1]), Names.checkId(parts[2]));
                if (c.state() != state) {
                    throw new IllegalArgumentException("listed " + c.state() + ", not " + state);
                }
                return c;
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(
                        "cursor: must be a nextCursor of a page of the same topic and state, got '"
                                + (text.length() > 140 ? text.substring(0, 140) + "..." : text) + "'",
                        e);
            }
        }
    }
}
