// Chaos: under a steady load of non-streamed and streamed requests, pods fail the ways pods fail (killed, stopped
// with SIGSTOP, resetting connections, a /metrics that stalls) one after the other, one at a time (the killed pod is
// replaced by a new one on its port before the next phase), and last a pod dies while another is frozen, the dead
// one left dead. Every request the clients send is counted, streamed or not: none may fail before its first byte
// (the gateway retries it on another endpoint); a stream that has started may end only with a final error event,
// and only when the pod serving it is the one that failed mid-stream; no stream is cut short silently; a failed pod
// leaves the rotation within a second; and nothing stays in flight afterwards.
// Then the Redis that two gateways share their rate limits through stops and starts again, under the same load.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { clearFaults, injectFaults, startGateway, startRedis, startSimulator, stop } from '../lib/processes.mjs';

const PHASE_MS = 3_000;

let pods;
let gateway;
let client;

before(async () => {
  pods = [];
  for (let i = 0; i < 3; i++) {
    pods.push(await startSimulator(['--model', 'llama']));
  }
  gateway = await startGateway([
    '--infergate.demo.enabled=false',
    `--infergate.pools.p.endpoints=${pods.map((pod) => pod.url).join(',')}`,
    '--infergate.pools.p.timeouts.first-byte=1s',
    '--infergate.pools.p.timeouts.stream-idle=1s',
    '--infergate.pools.p.scrape.timeout=200ms',
    '--infergate.pools.p.scrape.unready-after-failures=2',
    '--infergate.gateway.retries=2',
  ]);
  client = new OpenAI({ baseURL: `${gateway.apiUrl}/v1`, apiKey: 'not-checked', maxRetries: 0, timeout: 30_000 });
  // The first authenticated call to the management port checks the password with bcrypt and builds the report's
  // path cold, over a second under load: warm it before the phases, which poll it.
  for (let i = 0; i < 20; i++) {
    await endpoints();
  }
});

after(async () => {
  await stop(gateway);
  for (const pod of pods) {
    if (pod.child.signalCode === null && pod.child.exitCode === null) {
      pod.child.kill('SIGCONT');
    }
    await stop(pod);
  }
});

/**
 * What the clients saw: `lost` holds every request, streamed or not, that failed before the first byte of its
 * answer; `streamErrors` the streams that started and then ended with an error event, with the endpoint that served
 * each (its `x-infergate-endpoint`).
 */
function newCounts() {
  return { sent: 0, answered: 0, lost: [], streamsFinished: 0, streamErrors: [], streamsCutShort: 0 };
}

/** How many of `failures` had each status and error code, for the log. */
function byCode(failures) {
  const counted = {};
  for (const { status, code, endpoint } of failures) {
    const key = `${status ?? `in-stream from ${endpoint}`} ${code}`;
    counted[key] = (counted[key] ?? 0) + 1;
  }
  return counted;
}

/** What a client saw of a failed request, and when; `endpoint` served the stream that failed after it started. */
function failure(error, streamed, endpoint = null) {
  return {
    at: Date.now(), streamed, endpoint, status: error.status ?? null, code: error.code ?? null, message: String(error),
  };
}

async function nonStreamed(counts, on = client) {
  counts.sent++;
  try {
    const reply = await on.chat.completions.create({
      model: 'llama', messages: [{ role: 'user', content: 'steady load' }], max_tokens: 8,
    });
    assert.equal(reply.usage.completion_tokens, 8);
    counts.answered++;
  } catch (error) {
    counts.lost.push(failure(error, false));
  }
}

async function streamed(counts, on = client) {
  counts.sent++;
  let started;
  try {
    started = await on.chat.completions.create({
      model: 'llama', messages: [{ role: 'user', content: 'steady stream' }], max_tokens: 24, stream: true,
    }).withResponse();
  } catch (error) {
    // an error status, or no answer at all: the stream never started
    counts.lost.push(failure(error, true));
    return;
  }
  let finished = false;
  try {
    for await (const chunk of started.data) {
      if (chunk.choices[0]?.finish_reason) {
        finished = true;
      }
    }
  } catch (error) {
    // an error event after the stream started
    counts.streamErrors.push(failure(error, true, started.response.headers.get('x-infergate-endpoint')));
    return;
  }
  if (finished) {
    counts.streamsFinished++;
  } else {
    counts.streamsCutShort++;
  }
}

/**
 * Runs `workers` loops of alternating non-streamed and streamed requests through `on` until `stopAt`, and on until
 * `minimumSent` were sent: a slow machine still puts each phase under load.
 */
async function load(counts, stopAt, workers = 6, on = client, minimumSent = 0) {
  await Promise.all(Array.from({ length: workers }, async (_, worker) => {
    for (let i = worker; Date.now() < stopAt || counts.sent < minimumSent; i++) {
      await ((i % 2 === 0) ? nonStreamed(counts, on) : streamed(counts, on));
    }
  }));
}

async function endpoints(on = gateway) {
  const report = await (await on.management('/actuator/inference')).json();
  return report.pools.find((pool) => pool.name === 'p').endpoints;
}

/** Waits up to 10 s for every endpoint's in-flight requests and tokens to be 0; what they were last. */
async function inFlightAfterwards(on = gateway) {
  let inFlight;
  for (let waited = 0; waited < 10_000; waited += 100) {
    inFlight = (await endpoints(on)).map((e) => [e.id, e.inFlight.requests, e.inFlight.tokens]);
    if (inFlight.every(([, requests, tokens]) => requests === 0 && tokens === 0)) {
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return inFlight;
}

/** Infergate's own log lines of the gateway so far, without stack traces; the last 60. */
function gatewayLog() {
  return gateway.output.split('\n').filter((line) => / i\.i\./.test(line)).slice(-60).join('\n');
}

function idOf(pod) {
  return new URL(pod.url).host;
}

/** Whether the gateway routes to `endpoint`: ready, and its circuit not open. */
function inRotation(endpoint) {
  return endpoint.ready && endpoint.circuit !== 'open';
}

/**
 * When the gateway's own log says it took `pod` out of rotation (not ready after failed scrapes, or its circuit
 * opened), at or after `since`; null when it has not said so.
 */
function loggedOutOfRotationAt(pod, since) {
  const id = idOf(pod);
  for (const line of gateway.output.split('\n')) {
    if (line.includes(id) && (line.includes(' is not ready after ') || line.includes('CLOSED -> OPEN'))) {
      const at = Date.parse(line.slice(0, line.indexOf(' ')));
      if (at >= since) {
        return at;
      }
    }
  }
  return null;
}

/**
 * Waits up to `limitMs` for the report to show `pod` out of rotation, then returns how long after `faultAt` the
 * gateway took it out, by its own log: the report's time to answer on a busy machine is not the gateway's. Infinity
 * when the report never shows it out.
 */
async function millisUntilOutOfRotation(pod, faultAt, limitMs = 10_000) {
  while (Date.now() - faultAt < limitMs) {
    const endpoint = (await endpoints()).find((e) => e.id === idOf(pod));
    if (!inRotation(endpoint)) {
      const at = loggedOutOfRotationAt(pod, faultAt);
      assert.ok(at !== null, `the report shows ${idOf(pod)} out of rotation, and the gateway's log says when`);
      return at - faultAt;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Infinity;
}

/**
 * Waits, under a trickle of requests, until every live pod is back in rotation, so that each phase starts with one
 * fault only: a pod whose circuit opened stays out for the circuit's open time (10 s) after its fault is cleared,
 * and only a request after that lets its half-open probes through.
 */
async function awaitLivePodsInRotation(live, limitMs = 25_000) {
  const ids = live.map(idOf);
  const start = Date.now();
  while (Date.now() - start < limitMs) {
    if ((await endpoints()).filter((e) => ids.includes(e.id)).every(inRotation)) {
      return;
    }
    await nonStreamed(newCounts());
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`pods ${ids} not back in rotation after ${limitMs} ms: ${JSON.stringify(await endpoints())}`);
}

/**
 * Applies `fault` under load for a phase, then `heal`; what the clients saw, and how fast every pod of `faulty` left
 * the rotation (the slowest of them). `failingMidStream` are the pods whose fault may end a started stream;
 * `outWithinMillis` bounds how long after the fault the gateway may take them out (null: no bound).
 */
async function phase(name, { faulty, failingMidStream, outWithinMillis = 1_000 }, fault, heal) {
  const counts = newCounts();
  const running = load(counts, Date.now() + PHASE_MS, 6, client, 30);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const faultAt = Date.now();
  await fault();
  let outMillis = 0;
  for (const pod of faulty) {
    outMillis = Math.max(outMillis, await millisUntilOutOfRotation(pod, faultAt));
  }
  await running;
  await heal();
  console.log(`chaos ${name}: ${JSON.stringify({
    ...counts, lost: byCode(counts.lost), streamErrors: byCode(counts.streamErrors), outOfRotationMillis: outMillis,
  })}`);
  return { counts, outMillis, outWithinMillis, failingMidStream: failingMidStream.map(idOf) };
}

test('pods killed, stopped, resetting connections and with a stalled /metrics, then one dead while another is '
  + 'frozen, lose no request, end a started stream only where its own pod failed, and leak nothing',
{ timeout: 180_000 }, async () => {
  const [first, second, third] = pods;
  const results = {};
  results.kill = await phase('kill', { faulty: [first], failingMidStream: [first] },
    async () => first.child.kill('SIGKILL'), async () => {});
  // A new pod on the killed one's port, as an orchestrator would start, so that each of the next phases has one
  // faulty pod and two healthy ones.
  pods[0] = await startSimulator(['--model', 'llama', '--port', new URL(first.url).port]);
  await awaitLivePodsInRotation([pods[0], second, third]);
  results.sigstop = await phase('sigstop', { faulty: [second], failingMidStream: [second] },
    async () => second.child.kill('SIGSTOP'), async () => second.child.kill('SIGCONT'));
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  // A pod resetting connections still answers its scrapes: its circuit takes it out after five connection failures
  // in a row (EndpointCircuitsTests.consecutiveConnectionFailuresOpenTheCircuitAtOnce), so how soon depends on how fast requests reach it, not on a timer.
  results.reset = await phase('reset', { faulty: [third], failingMidStream: [third], outWithinMillis: null },
    async () => injectFaults(third, { resetConnections: true }), async () => clearFaults(third));
  await awaitLivePodsInRotation([pods[0], second, third]);
  // a pod whose /metrics stalls still serves: no stream of it may fail
  results.stalledMetrics = await phase('stalled-metrics', { faulty: [second], failingMidStream: [] },
    async () => injectFaults(second, { stallMetrics: true }), async () => clearFaults(second));
  await awaitLivePodsInRotation([pods[0], second, third]);
  // One pod dies and stays dead while another is frozen: the third serves everything, and a request sent to either
  // faulty pod before it left the rotation is retried there.
  const dead = pods[0];
  results.deadAndFrozen = await phase('dead-and-frozen', { faulty: [dead, second], failingMidStream: [dead, second] },
    async () => {
      dead.child.kill('SIGKILL');
      second.child.kill('SIGSTOP');
    }, async () => second.child.kill('SIGCONT'));

  if (Object.values(results).some(({ counts }) => counts.lost.length > 0 || counts.streamsCutShort > 0
    || counts.streamErrors.length > 0)) {
    // Infergate's own lines of the gateway's log (repeated errors are summarised there), to say why
    console.log(`chaos gateway log:\n${gatewayLog()}`);
  }
  for (const [name, { counts, outMillis, outWithinMillis, failingMidStream }] of Object.entries(results)) {
    assert.ok(counts.sent > 10, `${name}: load ran (${counts.sent} requests)`);
    assert.equal(counts.answered + counts.streamsFinished + counts.streamErrors.length + counts.streamsCutShort
      + counts.lost.length, counts.sent, `${name}: every request sent is counted once`);
    assert.deepEqual(counts.lost, [], `${name}: no request, streamed or not, failed before its first byte`);
    assert.equal(counts.streamsCutShort, 0, `${name}: no stream cut short without an error event`);
    for (const streamError of counts.streamErrors) {
      assert.ok(failingMidStream.includes(streamError.endpoint),
        `${name}: a started stream ended with an error event only where its own pod failed (${failingMidStream}): `
        + JSON.stringify(streamError));
    }
    // two failed scrapes (interval 50 ms, timeout 200 ms) take a pod out: within a second by the gateway's own log
    assert.ok(outMillis <= (outWithinMillis ?? Infinity) && outMillis !== Infinity,
      `${name}: the pod left the rotation after ${outMillis} ms`);
  }
  const inFlight = await inFlightAfterwards();
  assert.ok(inFlight.every(([, requests, tokens]) => requests === 0 && tokens === 0),
    `in-flight counts return to 0: ${JSON.stringify(inFlight)}`);
});

const LOAD_SECRET = 'sk-chaos-load-5e1f0c77';
const SHARED_SECRET = 'sk-chaos-shared-93d2b7a4';

/** The sum of a gateway's Prometheus samples named `name`, over their labels; null when it has none. */
async function metric(on, name) {
  const text = await (await on.management('/actuator/prometheus')).text();
  let sum = null;
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name}{`) || line.startsWith(`${name} `)) {
      sum = (sum ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  }
  return sum;
}

const STORE_FAILURES = 'infergate_rate_limit_store_failures_total';

/**
 * Milliseconds until a request through `on` is decided by Redis again: answered 200 while the replica's count of
 * decisions taken without its store stays put. Infinity after `limitMs`.
 */
async function millisUntilDecidedByRedis(on, openai, limitMs = 10_000) {
  const start = Date.now();
  while (Date.now() - start < limitMs) {
    const before = await metric(on, STORE_FAILURES);
    const counts = newCounts();
    await nonStreamed(counts, openai);
    if (counts.answered === 1 && await metric(on, STORE_FAILURES) === before
      && await metric(on, 'infergate_rate_limit_store_available') === 1) {
      return Date.now() - start;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return Infinity;
}

test('with Redis stopped under load, fail-open serves every request on its own limits and fail-close answers 503 '
  + 'rate_limit_store_unavailable, never more; once Redis is back both share limits again and nothing is in flight',
{ timeout: 240_000 }, async () => {
  const modes = ['fail-open', 'fail-close'];
  let redis = await startRedis();
  const limitedPods = [];
  const replicas = {};
  try {
    for (let i = 0; i < 2; i++) {
      limitedPods.push(await startSimulator(['--model', 'llama']));
    }
    const config = path.join(mkdtempSync(path.join(os.tmpdir(), 'infergate-chaos-redis-')), 'limits.yml');
    const sha256 = (secret) => createHash('sha256').update(secret, 'utf8').digest('hex');
    // the load's key never reaches its limits, in Redis or alone; the shared key's 4 per minute tell shared from alone
    writeFileSync(config, `
infergate:
  demo: {enabled: false}
  pools:
    p: {endpoints: [${limitedPods.map((pod) => `"${pod.url}"`).join(', ')}]}
  auth:
    enabled: true
    keys:
      chaos-load: {sha256: ${sha256(LOAD_SECRET)}, limits: {rpm: 1000000, tpm: 1000000000}}
      chaos-shared: {sha256: ${sha256(SHARED_SECRET)}, limits: {rpm: 4}}
  redis:
    url: ${redis.url}
  rate-limits:
    store: redis
`);
    await Promise.all(modes.map(async (mode) => {
      replicas[mode] = await startGateway([`--spring.config.additional-location=file:${config}`,
        `--infergate.rate-limits.on-store-failure=${mode}`]);
    }));
    const openai = (mode, apiKey) => new OpenAI({
      baseURL: `${replicas[mode].apiUrl}/v1`, apiKey, maxRetries: 0, timeout: 30_000,
    });
    const clients = Object.fromEntries(modes.map((mode) => [mode, openai(mode, LOAD_SECRET)]));
    for (const mode of modes) {
      assert.ok(await millisUntilDecidedByRedis(replicas[mode], clients[mode]) < 10_000, `${mode}: uses Redis`);
    }
    const logBefore = Object.fromEntries(modes.map((mode) => [mode, replicas[mode].output.length]));
    const failuresBefore = Object.fromEntries(await Promise.all(modes.map(async (mode) =>
      [mode, await metric(replicas[mode], STORE_FAILURES)])));

    const counts = Object.fromEntries(modes.map((mode) => [mode, newCounts()]));
    const start = Date.now();
    const running = Promise.all(modes.map((mode) => load(counts[mode], start + 9_000, 3, clients[mode])));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const stoppedAt = Date.now();
    await stop(redis);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    redis = await startRedis(redis.port);
    const restartedAt = Date.now();
    await running;
    const failuresDuring = Object.fromEntries(await Promise.all(modes.map(async (mode) =>
      [mode, await metric(replicas[mode], STORE_FAILURES) - failuresBefore[mode]])));
    const recoveryMillis = {};
    for (const mode of modes) {
      recoveryMillis[mode] = await millisUntilDecidedByRedis(replicas[mode], clients[mode]);
    }
    const shared = [];
    for (let i = 0; i < 8; i++) {
      const mode = modes[i % 2];
      const response = await fetch(`${replicas[mode].apiUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${SHARED_SECRET}` },
        body: JSON.stringify({ model: 'llama', messages: [{ role: 'user', content: 'shared' }], max_tokens: 1 }),
      });
      await response.arrayBuffer();
      shared.push(response.status);
    }
    const inFlight = {};
    const log = {};
    for (const mode of modes) {
      inFlight[mode] = await inFlightAfterwards(replicas[mode]);
      log[mode] = replicas[mode].output.slice(logBefore[mode]);
    }
    for (const mode of modes) {
      const { lost, streamErrors, ...rest } = counts[mode];
      console.log(`chaos redis-stopped ${mode}: ${JSON.stringify({
        ...rest, lost: byCode(lost), streamErrors: byCode(streamErrors), storeFailures: failuresDuring[mode],
        recoveryMillis: recoveryMillis[mode],
      })}`);
    }
    console.log(`chaos redis-stopped: the shared key after recovery, alternating replicas: ${shared}`);

    const open = counts['fail-open'];
    const close = counts['fail-close'];
    for (const mode of modes) {
      assert.ok(counts[mode].sent > 20, `${mode}: load ran (${counts[mode].sent} requests)`);
      assert.equal(counts[mode].streamsCutShort, 0, `${mode}: no stream cut short without an error event`);
      assert.ok(failuresDuring[mode] > 0, `${mode}: requests were decided without Redis (${failuresDuring[mode]})`);
      assert.ok(recoveryMillis[mode] < 10_000, `${mode}: decided by Redis again`);
      assert.ok(inFlight[mode].every(([, requests, tokens]) => requests === 0 && tokens === 0),
        `${mode}: in-flight counts return to 0: ${JSON.stringify(inFlight[mode])}`);
      // the switch each way is logged once, and the outage leaves no stack trace
      assert.equal(log[mode].match(/rate-limit store cannot be reached/g)?.length, 1, `${mode}:\n${log[mode]}`);
      assert.equal(log[mode].match(/rate-limit store answers again/g)?.length, 1, `${mode}:\n${log[mode]}`);
      assert.doesNotMatch(log[mode], /^\s+at [\w$.]+\(/m, `${mode}: no stack trace in the log`);
    }
    assert.deepEqual(open.lost, [], 'fail-open: no non-streamed request lost');
    assert.deepEqual(open.streamErrors, [], 'fail-open: every stream finished');
    const refusals = [...close.lost, ...close.streamErrors];
    assert.ok(refusals.length > 0, 'fail-close: requests were refused while Redis was down');
    for (const refusal of refusals) {
      assert.equal(refusal.status, 503, JSON.stringify(refusal));
      assert.equal(refusal.code, 'rate_limit_store_unavailable', JSON.stringify(refusal));
      assert.ok(refusal.at >= stoppedAt && refusal.at <= restartedAt + 5_000,
        `fail-close: refused only while Redis was down or reconnecting: ${refusal.at - stoppedAt} ms after the stop, `
        + `which lasted ${restartedAt - stoppedAt} ms`);
    }
    assert.ok(close.answered > 0 && close.streamsFinished > 0, 'fail-close: served while Redis was up');
    // one limit of 4 for both replicas, counted in Redis: 4 answered in all, then 429s from either
    assert.deepEqual(shared, [200, 200, 200, 200, 429, 429, 429, 429]);
  } finally {
    await Promise.all(Object.values(replicas).map((replica) => stop(replica)));
    for (const pod of limitedPods) {
      await stop(pod);
    }
    await stop(redis);
  }
});
