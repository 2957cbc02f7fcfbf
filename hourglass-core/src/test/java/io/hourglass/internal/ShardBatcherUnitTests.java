package io.hourglass.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

class ShardBatcherUnitTests {
    private static final int MAX_ITEMS = 8;
    private static final int MAX_BYTES = 64;

    /** Records each call and leaves it open until the test answers it. */
    private static final class RecordingSender implements ShardBatcher.Sender<String> {
        final List<String> calls = new ArrayList<>();
        final List<CompletableFuture<List<String>>> replies = new ArrayList<>();

        @Override
        public synchronized CompletableFuture<List<String>> send(String topic, int shard, List<byte[]> idsAndReceipts) {
            StringBuilder call = new StringBuilder(topic + "/" + shard + ":");
            for (int i = 0; i < idsAndReceipts.size(); i += 2) {
                call.append(' ')
                        .append(text(idsAndReceipts.get(i)))
                        .append('=')
                        .append(text(idsAndReceipts.get(i + 1)));
            }
            calls.add(call.toString());
            CompletableFuture<List<String>> reply = new CompletableFuture<>();
            replies.add(reply);
            return reply;
        }

        void answer(int call, String... outcomes) {
            replies.get(call).complete(List.of(outcomes));
        }
    }

    private final RecordingSender sender = new RecordingSender();
    private final ShardBatcher<String> batcher = new ShardBatcher<>(MAX_ITEMS, MAX_BYTES, sender);

    @Test
    void aLoneAckIsSentAtOnce() throws Exception {
        CompletableFuture<String> outcome = ack("t", 0, "a", "r1");

        assertThat(sender.calls).containsExactly("t/0: a=r1");
        sender.answer(0, "OK");
        assertThat(outcome.get()).isEqualTo("OK");
    }

    @Test
    void acksThatArriveWhileOneIsInFlightGoTogetherInTheNextCallEachWithItsOwnOutcome() throws Exception {
        List<CompletableFuture<String>> acks = threeAcksOnOneShard();
        CompletableFuture<String> first = acks.get(0);
        CompletableFuture<String> second = acks.get(1);
        CompletableFuture<String> third = acks.get(2);
        assertThat(sender.calls).containsExactly("t/0: a=r1");

        sender.answer(0, "OK");

        assertThat(sender.calls).containsExactly("t/0: a=r1", "t/0: b=r2 c=r3");
        assertThat(second).isNotDone();
        sender.answer(1, "STALE", "OK");
        assertThat(first.get()).isEqualTo("OK");
        assertThat(second.get()).isEqualTo("STALE");
        assertThat(third.get()).isEqualTo("OK");
    }

    @Test
    void shardsAreBatchedApartAndDoNotWaitForEachOther() {
        ack("t", 0, "a", "r1");
        ack("t", 1, "b", "r2");
        ack("u", 0, "c", "r3");

        assertThat(sender.calls).containsExactly("t/0: a=r1", "t/1: b=r2", "u/0: c=r3");
    }

    @Test
    void aFailedCallFailsItsAcksAndTheNextBatchStillGoes() throws Exception {
        CompletableFuture<String> first = ack("t", 0, "a", "r1");
        CompletableFuture<String> second = ack("t", 0, "b", "r2");

        sender.replies.get(0).completeExceptionally(new IllegalStateException("connection lost"));

        assertThatThrownBy(first::get).isInstanceOf(ExecutionException.class).hasMessageContaining("connection lost");
        assertThat(sender.calls).containsExactly("t/0: a=r1", "t/0: b=r2");
        sender.answer(1, "OK");
        assertThat(second.get()).isEqualTo("OK");
    }

    @Test
    void noCallCarriesMoreThanTheItemLimit() {
        ack("t", 0, "first", "r");
        for (int i = 0; i < MAX_ITEMS + 3; i++) {
            ack("t", 0, "i" + i, "r");
        }

        sender.answer(0, "OK");
        sender.answer(1, Collections.nCopies(MAX_ITEMS, "OK").toArray(String[]::new));

        assertThat(sender.calls).hasSize(3);
        assertThat(sender.calls.get(1).split(" ")).hasSize(MAX_ITEMS + 1);
        assertThat(sender.calls.get(2).split(" ")).hasSize(3 + 1);
    }

    @Test
    void aFullBatchGoesWithoutWaitingForTheCallInFlightButNoMoreThanTwoCallsOfAShardAreInFlight() {
        ack("t", 0, "first", "r");
        for (int i = 0; i < MAX_ITEMS - 1; i++) {
            ack("t", 0, "a" + i, "r");
        }
        assertThat(sender.calls).as("seven items wait for the reply").hasSize(1);

        ack("t", 0, "a" + (MAX_ITEMS - 1), "r");
        for (int i = 0; i < 2 * MAX_ITEMS; i++) {
            ack("t", 0, "b" + i, "r");
        }

        assertThat(sender.calls)
                .as("the eighth fills a batch; the next two batches wait")
                .hasSize(2);
        assertThat(sender.calls.get(1).split(" ")).hasSize(MAX_ITEMS + 1);
        assertThat(sender.calls.get(1)).startsWith("t/0: a0=r ");
        sender.answer(0, "OK");
        assertThat(sender.calls).hasSize(3);
        assertThat(sender.calls.get(2)).startsWith("t/0: b0=r ").endsWith(" b7=r");
    }

    @Test
    void itemsFillingTheByteLimitAreAFullBatch() {
        ack("t", 0, "first", "r");
        ack("t", 0, "x".repeat(MAX_BYTES / 2 - 1), "r");
        assertThat(sender.calls).hasSize(1);

        ack("t", 0, "y".repeat(MAX_BYTES / 2 - 1), "r");

        assertThat(sender.calls).hasSize(2);
    }

    @Test
    void theNextBatchIsSentBeforeTheRepliedItemsComplete() {
        CompletableFuture<String> first = ack("t", 0, "a", "r1");
        ack("t", 0, "b", "r2");
        List<Integer> callsWhenFirstCompleted = new ArrayList<>();
        first.thenRun(() -> callsWhenFirstCompleted.add(sender.calls.size()));

        sender.answer(0, "OK");

        assertThat(callsWhenFirstCompleted).containsExactly(2);
    }

    @Test
    void noCallCarriesMoreThanTheByteLimitButAnItemLargerThanItStillGoesAlone() throws Exception {
        ack("t", 0, "first", "r");
        String big = "b".repeat(MAX_BYTES);
        CompletableFuture<String> alone = ack("t", 0, big, "r");
        ack("t", 0, "x".repeat(MAX_BYTES / 2 - 1), "r");
        ack("t", 0, "y".repeat(MAX_BYTES / 2 - 1), "r");
        ack("t", 0, "z", "r");

        sender.answer(0, "OK");
        sender.answer(1, "OK");
        sender.answer(2, "OK", "OK");

        assertThat(sender.calls).hasSize(4);
        assertThat(sender.calls.get(1)).isEqualTo("t/0: " + big + "=r");
        assertThat(sender.calls.get(2).split(" ")).as("two halves fill a call").hasSize(2 + 1);
        assertThat(sender.calls.get(3)).isEqualTo("t/0: z=r");
        assertThat(alone.get()).isEqualTo("OK");
    }

    @Test
    void aReplyShorterThanItsBatchFailsTheItemsLeftWithoutAnOutcome() throws Exception {
        List<CompletableFuture<String>> acks = threeAcksOnOneShard();
        CompletableFuture<String> first = acks.get(0);
        CompletableFuture<String> second = acks.get(1);
        CompletableFuture<String> third = acks.get(2);
        sender.answer(0, "OK");

        sender.answer(1, "OK");

        assertThat(second.get()).isEqualTo("OK");
        assertThat(third).isCompletedExceptionally();
        assertThat(first.get()).isEqualTo("OK");
    }

    @Test
    void queuedAcksWaitForAClaimToCarryThemWithTheirOutcomesFromItsReply() throws Exception {
        CompletableFuture<String> first = batcher.enqueue("t", 0, bytes("a"), bytes("r1"));
        CompletableFuture<String> second = batcher.enqueue("t", 0, bytes("b"), bytes("r2"));
        assertThat(sender.calls).isEmpty();

        ShardBatcher.Carried<String> carried = batcher.carry("t", 0);
        assertThat(carried.arguments()).extracting(ShardBatcherUnitTests::text).containsExactly("a", "r1", "b", "r2");
        assertThat(batcher.carry("t", 0).arguments())
                .as("nothing left to carry")
                .isEmpty();
        batcher.flush("t", 0);
        assertThat(sender.calls).as("nothing left to send").isEmpty();

        carried.complete(List.of("OK", "MISSING"), null);
        assertThat(first.get()).isEqualTo("OK");
        assertThat(second.get()).isEqualTo("MISSING");
    }

    @Test
    void aFlushSendsWhatNoClaimTookAndAFailedClaimFailsWhatItCarried() {
        CompletableFuture<String> carriedAck = batcher.enqueue("t", 0, bytes("a"), bytes("r1"));
        ShardBatcher.Carried<String> carried = batcher.carry("t", 0);
        batcher.enqueue("t", 0, bytes("b"), bytes("r2"));

        batcher.flush("t", 0);
        carried.complete(null, new IllegalStateException("connection lost"));

        assertThat(sender.calls).containsExactly("t/0: b=r2");
        assertThat(carriedAck).isCompletedExceptionally();
    }

    /** Acks a, b and c on shard 0 of topic t (receipts r1, r2, r3): a goes at once, b and c wait for its reply. */
    private List<CompletableFuture<String>> threeAcksOnOneShard() {
        return List.of(ack("t", 0, "a", "r1"), ack("t", 0, "b", "r2"), ack("t", 0, "c", "r3"));
    }

    private CompletableFuture<String> ack(String topic, int shard, String id, String receipt) {
        return batcher.submit(
                topic, shard, id.getBytes(StandardCharsets.UTF_8), receipt.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
