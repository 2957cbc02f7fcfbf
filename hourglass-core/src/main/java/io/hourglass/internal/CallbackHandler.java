package io.hourglass.internal;

import io.hourglass.CallbackOptions;
import io.hourglass.Job;
import io.hourglass.JobHandler;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Delivers a callback job: POSTs its payload to its callback URL. A 2xx answer returns normally (ack); anything
 * else throws, so the dispatcher retries the job on its backoff.
 */
final class CallbackHandler implements JobHandler {
  private final CallbackOptions options;
  private final HttpClient http;

  CallbackHandler(CallbackOptions options) {
    this.options = options;
    this.http = HttpClient.newBuilder()
        .connectTimeout(options.timeout())
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
  }

  @Override
  public void handle(Job job) throws IOException, InterruptedException {
    URI url = ((JobContext) job).record().callbackUri();
    HttpRequest request = HttpRequest.newBuilder(url)
        .timeout(options.timeout())
        .header("Content-Type", options.contentType())
        .header("Hourglass-Job-Id", job.id())
        .header("Hourglass-Topic", job.topic())
        .header("Hourglass-Attempt", Integer.toString(job.attempt()))
        .header("Hourglass-Due-At", job.dueAt().toString())
        .POST(HttpRequest.BodyPublishers.ofByteArray(job.payload()))
        .build();
    HttpResponse<Void> response = http.send(request, HttpResponse.BodyHandlers.discarding());
    int status = response.statusCode();
    if (status < 200 || status > 299) {
      throw new IOException("callback " + url + " answered HTTP " + status);
    }
  }

  Duration timeout() {
    return options.timeout();
  }
}
