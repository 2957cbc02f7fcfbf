package io.hourglass.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

class AckBatcherUnitTests {

  /** Records each call and leaves it open until the test answers it. */
  private static final class RecordingSender implements AckBatcher.Sender {
    final List<String> calls = new ArrayList<>();
    final List<CompletableFuture<List<Object>>> replies = new ArrayList<>();

    @Override
    public synchronized CompletableFuture<List<Object>> send(String topic, int shard, List<byte[]> idsAndReceipts) {
      StringBuilder call = new StringBuilder(topic + "/" + shard + ":");
      for (int i = 0; i < idsAndReceipts.size(); i += 2) {
        call.append(' ').append(text(idsAndReceipts.get(i))).append('=').append(text(idsAndReceipts.get(i + 1)));
      }
      calls.add(call.toString());
      CompletableFuture<List<Object>> reply = new CompletableFuture<>();
      replies.add(reply);
      return reply;
    }

    void answer(int call, String... outcomes) {
      List<Object> reply = new ArrayList<>();
      for (String o : outcomes) {
        reply.add(o.getBytes(StandardCharsets.UTF_8));
      }
      replies.get(call).complete(reply);
    }
  }

  private final RecordingSender sender = new RecordingSender();
  private final AckBatcher batcher = new AckBatcher(sender);

  @Test
  void aLoneAckIsSentAtOnce() throws Exception {
    CompletableFuture<String> outcome = ack("t", 0, "a", "r1");

    assertThat(sender.calls).containsExactly("t/0: a=r1");
    sender.answer(0, "OK");
    assertThat(outcome.get()).isEqualTo("OK");
  }

  @Test
  void acksThatArriveWhileOneIsInFlightGoTogetherInTheNextCallEachWithItsOwnOutcome() throws Exception {
    CompletableFuture<String> first = ack("t", 0, "a", "r1");
    CompletableFuture<String> second = ack("t", 0, "b", "r2");
    CompletableFuture<String> third = ack("t", 0, "c", "r3");
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
  void noCallCarriesMoreThanTheBatchLimit() {
    ack("t", 0, "first", "r");
    for (int i = 0; i < AckBatcher.MAX_BATCH + 10; i++) {
      ack("t", 0, "id" + i, "r");
    }

    sender.answer(0, "OK");
    sender.answer(1, java.util.Collections.nCopies(AckBatcher.MAX_BATCH, "OK").toArray(String[]::new));

    assertThat(sender.calls).hasSize(3);
    assertThat(sender.calls.get(1).split(" ")).hasSize(AckBatcher.MAX_BATCH + 1);
    assertThat(sender.calls.get(2).split(" ")).hasSize(10 + 1);
  }

  @Test
  void queuedAcksWaitForAClaimToCarryThemWithTheirOutcomesFromItsReply() throws Exception {
    CompletableFuture<String> first = batcher.enqueue("t", 0, bytes("a"), bytes("r1"));
    CompletableFuture<String> second = batcher.enqueue("t", 0, bytes("b"), bytes("r2"));
    assertThat(sender.calls).isEmpty();

    AckBatcher.Carried carried = batcher.carry("t", 0);
    assertThat(carried.idsAndReceipts()).extracting(AckBatcherUnitTests::text).containsExactly("a", "r1", "b", "r2");
    assertThat(batcher.carry("t", 0)).isSameAs(AckBatcher.Carried.NONE);
    batcher.flush("t", 0);
    assertThat(sender.calls).as("nothing left to send").isEmpty();

    carried.complete(List.of(bytes("OK"), bytes("MISSING")), null);
    assertThat(first.get()).isEqualTo("OK");
    assertThat(second.get()).isEqualTo("MISSING");
  }

  @Test
  void aFlushSendsWhatNoClaimTookAndAFailedClaimFailsWhatItCarried() {
    CompletableFuture<String> carriedAck = batcher.enqueue("t", 0, bytes("a"), bytes("r1"));
    AckBatcher.Carried carried = batcher.carry("t", 0);
    batcher.enqueue("t", 0, bytes("b"), bytes("r2"));

    batcher.flush("t", 0);
    carried.complete(null, new IllegalStateException("connection lost"));

    assertThat(sender.calls).containsExactly("t/0: b=r2");
    assertThat(carriedAck).isCompletedExceptionally();
  }

  private CompletableFuture<String> ack(String topic, int shard, String id, String receipt) {
    return batcher.ack(topic, shard, id.getBytes(StandardCharsets.UTF_8), receipt.getBytes(StandardCharsets.UTF_8));
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String text(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }
}
