// A request's priority reaching the engine, through the official openai client: a `priority` among the request's
// parameters is Infergate's (larger is more important, it only lowers the key's), the gateway writes it into the
// body in the pool's engine's convention (vLLM's here: lower runs first), and a FIFO engine is never sent one.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startGateway, startSimulator, stop } from '../lib/processes.mjs';

let prioritised;
let fifo;
let gateway;
let client;

before(async () => {
  // one sequence at a time, so requests wait in the engine's queue, in the order it schedules them
  prioritised = await startSimulator(['--model', 'llama', '--max-num-seqs', '1', '--scheduling-policy', 'priority']);
  // a FIFO vLLM engine: it answers 400 to any priority other than 0
  fifo = await startSimulator(['--model', 'llama', '--perf-profile', 'zero']);
  gateway = await startGateway([
    '--infergate.demo.enabled=false',
    '--infergate.flow-control.enabled=false',
    `--infergate.pools.prioritised.endpoints=${prioritised.url}`,
    '--infergate.pools.prioritised.engine-priority=vllm',
    `--infergate.pools.fifo.endpoints=${fifo.url}`,
    '--infergate.models.prio.pool=prioritised',
    '--infergate.models.prio.target-model=llama',
    '--infergate.models.fifo.pool=fifo',
    '--infergate.models.fifo.target-model=llama',
  ]);
  client = new OpenAI({ baseURL: `${gateway.apiUrl}/v1`, apiKey: 'not-checked', maxRetries: 0, timeout: 60_000 });
});

after(async () => {
  await stop(gateway);
  await stop(prioritised);
  await stop(fifo);
});

const messages = [{ role: 'user', content: 'hello' }];

/** Waits until the prioritised engine's /metrics says it runs `running` requests and holds `waiting` in its queue. */
async function engineHolds(running, waiting) {
  const gauge = (text, name) => Number(text.match(new RegExp(`^vllm:${name}\\{[^}]*\\} (\\S+)$`, 'm'))?.[1]);
  for (let i = 0; i < 400; i++) {
    const text = await (await fetch(`${prioritised.url}/metrics`)).text();
    if (gauge(text, 'num_requests_running') === running && gauge(text, 'num_requests_waiting') === waiting) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.fail(`the engine never held ${running} running and ${waiting} waiting`);
}

test('a priority among the parameters is taken out for a FIFO engine, streamed or not', async () => {
  const completion = await client.chat.completions.create({ model: 'fifo', messages, max_tokens: 3, priority: -2 });
  assert.equal(completion.usage.completion_tokens, 3);
  const stream = await client.chat.completions.create({ model: 'fifo', messages, max_tokens: 3, priority: -2,
    stream: true });
  let text = '';
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta?.content ?? '';
  }
  assert.ok(text.length > 0);
});

test('a priority that is not an integer is a BadRequestError naming the field', async () => {
  await assert.rejects(client.chat.completions.create({ model: 'prio', messages, priority: 'high' }), (error) => {
    assert.ok(error instanceof OpenAI.BadRequestError);
    assert.equal(error.status, 400);
    assert.equal(error.param, 'priority');
    assert.match(error.message, /'priority' must be an integer/);
    return true;
  });
});

test('an engine scheduling by priority serves the request sent at the default priority before an earlier flood '
    + 'sent at a lower one', async () => {
  const finished = [];
  const running = client.chat.completions.create({ model: 'prio', messages, max_tokens: 200 });
  // what the engine holds, not a fixed wait: on a busy machine the first request can reach it after the flood
  await engineHolds(1, 0);
  const flood = [];
  for (let i = 0; i < 3; i++) {
    flood.push(client.chat.completions.create({ model: 'prio', messages, max_tokens: 10, priority: -5 })
      .then((completion) => { finished.push('flood'); return completion; }));
  }
  await engineHolds(1, 3);
  const important = client.chat.completions.create({ model: 'prio', messages, max_tokens: 10 })
    .then((completion) => { finished.push('important'); return completion; });
  const results = await Promise.all([running, important, ...flood]);
  for (const completion of results) {
    assert.ok(completion.usage.completion_tokens > 0);
  }
  assert.deepEqual(finished, ['important', 'flood', 'flood', 'flood']);
});
