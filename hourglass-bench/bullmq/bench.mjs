// BullMQ side of the Hourglass benchmark (hourglass-bench). One workload per invocation, against the Redis on
// 127.0.0.1:<port>; prints exactly one JSON object on stdout (diagnostics go to stderr).
//
//   node bench.mjs schedule      --port P --jobs N --inflight F --producers T
//   node bench.mjs burst         --port P --jobs N --consumers C --lead-ms L
//   node bench.mjs sustained     --port P --jobs N --consumers C --delay-ms D --inflight F
//   node bench.mjs fixed-rate    --port P --rate R --seconds S --consumers C --lead-ms L
//   node bench.mjs backlog-fill  --port P --jobs N --payload-bytes B --generated-ids 0|1
//   node bench.mjs backlog-ops   --port P --jobs N --samples K
//   node bench.mjs produce-sustained --port P --jobs N --delay-ms D --inflight F
//   node bench.mjs produce-paced     --port P --rate R --seconds S --lead-ms L
//   node bench.mjs worker        --port P --consumers C
//
// `worker` is a worker alone, for the client-CPU workload, and speaks the protocol of the Java worker processes
// (ScaleOutWorker) instead of printing one JSON object: READY once its connection is ready; on a line `AWAIT n` it
// waits until n jobs started since its last report, on `STOP` it stops; either way it prints one line `RESULT `
// and a JSON object {delivered, early, lastHandledMicros, cpuNanos, jitMillis: -1, latenessMicros: [µs, ...]},
// counted since its last report, with its own CPU time (process.cpuUsage(): every thread of the process, V8's
// compiler and GC included). The `produce-*` workloads schedule the same jobs as `sustained` and `fixed-rate`
// without a worker.
//
// Lateness is measured at the start of the processor as (now - due time), in microseconds, with the due time
// (epoch ms) carried in the job's data; drain results list every job's lateness so the Java harness can record
// them in the same HdrHistogram as the other systems.
import { Queue, Worker } from 'bullmq';
import { performance } from 'node:perf_hooks';

const QUEUE = 'bench';
const FAR_AHEAD_MS = 3600_000;

function parseArgs(argv) {
  const [workload, ...rest] = argv;
  const args = { workload };
  for (let i = 0; i < rest.length; i += 2) {
    const key = rest[i].replace(/^--/, '').replace(/-([a-z])/g, (_, c) => c.toUpperCase());
    args[key] = Number(rest[i + 1]);
  }
  return args;
}

const nowMs = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const connection = (port) => ({ host: '127.0.0.1', port, maxRetriesPerRequest: null });
const jobOpts = (due, id) => {
  const now = Date.now();
  const opts = { timestamp: now, delay: Math.max(0, due - now), removeOnComplete: true, removeOnFail: true };
  if (id !== undefined) opts.jobId = id;
  return opts;
};

/** Runs `count` async tasks, at most `inflight` at once. */
async function withInFlight(count, inflight, task) {
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(inflight, count) }, lane));
}

/** A worker that records each job's lateness and resolves `done` when `expected` jobs have started. */
function drainingWorker(port, consumers, expected) {
  const lateness = [];
  let early = 0;
  let lastDone = 0;
  let resolveDone;
  const done = new Promise((resolve) => { resolveDone = resolve; });
  const worker = new Worker(QUEUE, async (job) => {
    const late = Math.round((nowMs() - job.data.due) * 1000);
    if (late < 0) early++;
    lateness.push(late);
    lastDone = nowMs();
    if (lateness.length >= expected) resolveDone();
  }, { connection: connection(port), concurrency: consumers, autorun: true });
  return { worker, done, result: () => ({ lateness, early, lastDone }) };
}

async function awaitDrain(drain, timeoutMs) {
  await Promise.race([drain.done, sleep(timeoutMs)]);
  await drain.worker.close();
  return drain.result();
}

function drainJson(jobs, startMs, r) {
  return {
    jobs,
    delivered: r.lateness.length,
    early: r.early,
    seconds: (r.lastDone - startMs) / 1000,
    latenessUs: r.lateness,
  };
}

async function schedule(a) {
  const queues = Array.from({ length: a.producers }, () => new Queue(QUEUE, { connection: connection(a.port) }));
  await Promise.all(queues.map((q) => q.waitUntilReady()));
  const perProducer = Math.floor(a.jobs / a.producers);
  await withInFlight(1000, a.inflight, // untimed warm-up, as on the Java side
    (i) => queues[0].add('j', { due: 0 }, jobOpts(Date.now() + FAR_AHEAD_MS, `w-${i}`)));
  const start = nowMs();
  await Promise.all(queues.map((q, p) => withInFlight(perProducer, a.inflight,
    (i) => q.add('j', { due: Date.now() + FAR_AHEAD_MS }, jobOpts(Date.now() + FAR_AHEAD_MS, `s${p}-${i}`)))));
  const seconds = (nowMs() - start) / 1000;
  await Promise.all(queues.map((q) => q.close()));
  return { jobs: perProducer * a.producers, seconds };
}

async function burst(a) {
  const queue = new Queue(QUEUE, { connection: connection(a.port) });
  const drain = drainingWorker(a.port, a.consumers, a.jobs);
  await drain.worker.waitUntilReady();
  const due = Date.now() + a.leadMs;
  const scheduleStart = nowMs();
  for (let i = 0; i < a.jobs; i += 1000) {
    const n = Math.min(1000, a.jobs - i);
    await queue.addBulk(Array.from({ length: n }, (_, k) => ({ name: 'j', data: { due }, opts: jobOpts(due) })));
  }
  const scheduledMs = nowMs();
  const r = await awaitDrain(drain, a.leadMs + 120_000);
  await queue.close();
  return { ...drainJson(a.jobs, due, r), dueMs: due, scheduleSeconds: (scheduledMs - scheduleStart) / 1000,
    scheduleOverrunMs: Math.max(0, scheduledMs - due) };
}

async function sustained(a) {
  const queue = new Queue(QUEUE, { connection: connection(a.port) });
  const drain = drainingWorker(a.port, a.consumers, a.jobs);
  await drain.worker.waitUntilReady();
  const start = nowMs();
  await withInFlight(a.jobs, a.inflight, (i) => {
    const due = Date.now() + a.delayMs;
    return queue.add('j', { due }, jobOpts(due));
  });
  const r = await awaitDrain(drain, a.delayMs + 180_000);
  await queue.close();
  return drainJson(a.jobs, start, r);
}

/** Adds jobs coming due at `a.rate`/s for `a.seconds`, each `a.leadMs` ahead; returns the first due time. */
async function addPaced(queue, a) {
  const jobs = a.rate * a.seconds;
  const firstDue = Date.now() + a.leadMs + 100;
  const dueOf = (i) => firstDue + Math.floor((i * 1000) / a.rate);
  let next = 0;
  const pending = [];
  while (next < jobs) {
    const horizon = Date.now() + a.leadMs;
    const batch = [];
    while (next < jobs && dueOf(next) <= horizon) {
      const due = dueOf(next++);
      batch.push({ name: 'j', data: { due }, opts: jobOpts(due) });
    }
    if (batch.length > 0) pending.push(queue.addBulk(batch));
    await sleep(5);
  }
  await Promise.all(pending);
  return firstDue;
}

async function fixedRate(a) {
  const jobs = a.rate * a.seconds;
  const queue = new Queue(QUEUE, { connection: connection(a.port) });
  const drain = drainingWorker(a.port, a.consumers, jobs);
  await drain.worker.waitUntilReady();
  const firstDue = await addPaced(queue, a);
  const r = await awaitDrain(drain, a.leadMs + 120_000);
  await queue.close();
  return drainJson(jobs, firstDue, r);
}

async function produceSustained(a) {
  const queue = new Queue(QUEUE, { connection: connection(a.port) });
  await withInFlight(a.jobs, a.inflight, (i) => {
    const due = Date.now() + a.delayMs;
    return queue.add('j', { due }, jobOpts(due));
  });
  await queue.close();
  return { jobs: a.jobs };
}

async function producePaced(a) {
  const queue = new Queue(QUEUE, { connection: connection(a.port) });
  await addPaced(queue, a);
  await queue.close();
  return { jobs: a.rate * a.seconds };
}

/** A worker alone that reports on request (see the top of this file); exits after STOP. */
async function workerAlone(a) {
  let pass = { lateness: [], early: 0, lastDone: 0 };
  const worker = new Worker(QUEUE, async (job) => {
    const late = Math.round((nowMs() - job.data.due) * 1000);
    if (late < 0) pass.early++;
    pass.lateness.push(late);
    pass.lastDone = nowMs();
  }, { connection: connection(a.port), concurrency: a.consumers, autorun: true });
  await worker.waitUntilReady();
  let cpuSince = process.cpuUsage();
  const report = () => {
    const done = pass;
    pass = { lateness: [], early: 0, lastDone: 0 };
    const cpu = process.cpuUsage(cpuSince);
    cpuSince = process.cpuUsage();
    return 'RESULT ' + JSON.stringify({
      delivered: done.lateness.length,
      early: done.early,
      lastHandledMicros: Math.round(done.lastDone * 1000),
      cpuNanos: (cpu.user + cpu.system) * 1000,
      jitMillis: -1,
      latenessMicros: done.lateness,
    }) + '\n';
  };
  process.stdout.write('READY\n');
  const lines = (await import('node:readline')).createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (line.startsWith('AWAIT ')) {
      const n = Number(line.slice(6));
      const deadline = Date.now() + 300_000;
      while (pass.lateness.length < n && Date.now() < deadline) await sleep(50);
      process.stdout.write(report());
    } else if (line.trim() === 'STOP') {
      break;
    }
  }
  const last = report();
  await worker.close();
  process.stdout.write(last, () => process.exit(0));
  return new Promise(() => {});
}

const backlogId = (i) => `b${String(i).padStart(9, '0')}`;

async function backlogFill(a) {
  const queue = new Queue(QUEUE, { connection: connection(a.port) });
  const payload = 'x'.repeat(a.payloadBytes);
  const start = nowMs();
  const farAhead = Date.now() + 86_400_000;
  for (let i = 0; i < a.jobs; i += 1000) {
    const n = Math.min(1000, a.jobs - i);
    await queue.addBulk(Array.from({ length: n }, (_, k) => ({ name: 'j', data: payload,
      opts: { ...jobOpts(farAhead + i + k, a.generatedIds ? undefined : backlogId(i + k)) } })));
  }
  const seconds = (nowMs() - start) / 1000;
  await queue.close();
  return { jobs: a.jobs, seconds, idBytes: backlogId(0).length, payloadBytes: a.payloadBytes };
}

async function timed(op) {
  const t0 = nowMs();
  await op();
  return Math.round((nowMs() - t0) * 1000);
}

async function backlogOps(a) {
  const queue = new Queue(QUEUE, { connection: connection(a.port) });
  const step = Math.max(1, Math.floor(a.jobs / (3 * a.samples)));
  const getUs = [];
  const rescheduleUs = [];
  const cancelUs = [];
  // Each operation warmed up as on the Java side: up to as many calls as are timed, for at most 3 s, on the job
  // after each sample's own.
  const warmUp = async (op, call) => {
    const end = nowMs() + 3000;
    for (let w = 0; w < a.samples && nowMs() < end; w++) await call(backlogId(((3 * w + op) * step + 1) % a.jobs));
  };
  await warmUp(0, (id) => queue.getJob(id));
  await warmUp(1, async (id) => {
    const job = await queue.getJob(id);
    if (job) await job.changeDelay(86_400_000 + 60_000);
  });
  await warmUp(2, (id) => queue.remove(id));
  for (let s = 0; s < a.samples; s++) {
    getUs.push(await timed(() => queue.getJob(backlogId((3 * s) * step))));
    const job = await queue.getJob(backlogId((3 * s + 1) * step));
    rescheduleUs.push(await timed(() => job.changeDelay(86_400_000 + 60_000)));
    cancelUs.push(await timed(() => queue.remove(backlogId((3 * s + 2) * step))));
  }
  await queue.close();
  return { getUs, cancelUs, rescheduleUs };
}

const WORKLOADS = {
  schedule, burst, sustained, 'fixed-rate': fixedRate, 'backlog-fill': backlogFill, 'backlog-ops': backlogOps,
  'produce-sustained': produceSustained, 'produce-paced': producePaced, worker: workerAlone,
};

// Exit when orphaned (the Java harness died): ioredis would otherwise retry a vanished Redis forever.
const parent = process.ppid;
setInterval(() => { if (process.ppid !== parent) process.exit(4); }, 1000).unref();

const args = parseArgs(process.argv.slice(2));
const run = WORKLOADS[args.workload];
if (!run) {
  console.error(`unknown workload ${args.workload}; one of ${Object.keys(WORKLOADS).join(', ')}`);
  process.exit(2);
}
try {
  const result = await run(args);
  // Exit only once the (possibly large) JSON has been flushed: stdout to a pipe is written asynchronously.
  process.stdout.write(JSON.stringify(result) + '\n', () => process.exit(0));
} catch (e) {
  console.error(e && e.stack ? e.stack : String(e));
  process.exit(1);
}
