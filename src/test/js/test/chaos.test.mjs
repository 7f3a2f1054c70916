// Chaos: under a steady load of non-streamed and streamed requests, pods fail the ways pods fail (killed, stopped
// with SIGSTOP, resetting connections, a /metrics that stalls) one after the other. What the clients saw is counted:
// no non-streamed request is lost, every stream either finishes or ends with an error event (never cut short
// silently), a failed pod leaves the rotation within a second, and nothing stays in flight afterwards.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { clearFaults, injectFaults, startGateway, startSimulator, stop } from '../lib/processes.mjs';

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

function newCounts() {
  return { sent: 0, answered: 0, lost: [], streamsFinished: 0, streamsEndedWithError: 0, streamsCutShort: 0 };
}

async function nonStreamed(counts) {
  counts.sent++;
  try {
    const reply = await client.chat.completions.create({
      model: 'llama', messages: [{ role: 'user', content: 'steady load' }], max_tokens: 8,
    });
    assert.equal(reply.usage.completion_tokens, 8);
    counts.answered++;
  } catch (error) {
    counts.lost.push(String(error));
  }
}

async function streamed(counts) {
  counts.sent++;
  let finished = false;
  try {
    const stream = await client.chat.completions.create({
      model: 'llama', messages: [{ role: 'user', content: 'steady stream' }], max_tokens: 24, stream: true,
    });
    for await (const chunk of stream) {
      if (chunk.choices[0]?.finish_reason) {
        finished = true;
      }
    }
    if (finished) {
      counts.streamsFinished++;
    } else {
      counts.streamsCutShort++;
    }
  } catch (error) {
    // an error event in the stream, or an error status before it started
    counts.streamsEndedWithError++;
  }
}

/** Runs `workers` loops of alternating non-streamed and streamed requests until `stopAt`. */
async function load(counts, stopAt, workers = 6) {
  await Promise.all(Array.from({ length: workers }, async (_, worker) => {
    for (let i = worker; Date.now() < stopAt; i++) {
      await ((i % 2 === 0) ? nonStreamed(counts) : streamed(counts));
    }
  }));
}

async function endpoints() {
  const report = await (await gateway.management('/actuator/inference')).json();
  return report.pools.find((pool) => pool.name === 'p').endpoints;
}

function idOf(pod) {
  return new URL(pod.url).host;
}

/** Whether the gateway routes to `endpoint`: ready, and its circuit not open. */
function inRotation(endpoint) {
  return endpoint.ready && endpoint.circuit !== 'open';
}

/** Milliseconds from now until the gateway stops routing to `pod`, or Infinity after `limitMs`. */
async function millisUntilOutOfRotation(pod, limitMs = 5_000) {
  const start = Date.now();
  while (Date.now() - start < limitMs) {
    const endpoint = (await endpoints()).find((e) => e.id === idOf(pod));
    if (!inRotation(endpoint)) {
      return Date.now() - start;
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

/** Applies `fault` under load for a phase, then `heal`; what the clients saw, and how fast the pod left. */
async function phase(name, pod, fault, heal) {
  const counts = newCounts();
  const running = load(counts, Date.now() + PHASE_MS);
  await new Promise((resolve) => setTimeout(resolve, 500));
  await fault();
  const outMillis = await millisUntilOutOfRotation(pod);
  await running;
  await heal();
  console.log(`chaos ${name}: ${JSON.stringify({ ...counts, lost: counts.lost.length, outOfRotationMillis: outMillis })}`);
  return { counts, outMillis };
}

test('pods killed, stopped, resetting connections and with a stalled /metrics lose no request and leak nothing',
  { timeout: 180_000 }, async () => {
    const [first, second, third] = pods;
    const results = {};
    results.kill = await phase('kill', first, async () => first.child.kill('SIGKILL'), async () => {});
    results.sigstop = await phase('sigstop', second, async () => second.child.kill('SIGSTOP'),
      async () => second.child.kill('SIGCONT'));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    results.reset = await phase('reset', third, async () => injectFaults(third, { resetConnections: true }),
      async () => clearFaults(third));
    await awaitLivePodsInRotation([second, third]);
    results.stalledMetrics = await phase('stalled-metrics', second,
      async () => injectFaults(second, { stallMetrics: true }), async () => clearFaults(second));

    for (const [name, { counts, outMillis }] of Object.entries(results)) {
      assert.ok(counts.sent > 10, `${name}: load ran (${counts.sent} requests)`);
      assert.deepEqual(counts.lost, [], `${name}: no non-streamed request lost`);
      assert.equal(counts.streamsCutShort, 0, `${name}: no stream cut short without an error event`);
      // a pod that resets connections still answers its scrapes: its circuit takes it out of rotation
      assert.ok(outMillis <= 1_000, `${name}: the pod left the rotation after ${outMillis} ms`);
    }
    let inFlight;
    for (let waited = 0; waited < 10_000; waited += 100) {
      inFlight = (await endpoints()).map((e) => [e.id, e.inFlight.requests, e.inFlight.tokens]);
      if (inFlight.every(([, requests, tokens]) => requests === 0 && tokens === 0)) {
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(inFlight.every(([, requests, tokens]) => requests === 0 && tokens === 0),
      `in-flight counts return to 0: ${JSON.stringify(inFlight)}`);
  });
