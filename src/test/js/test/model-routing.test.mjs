// Model routing of the packaged gateway against simulated model servers, through the official openai client:
// every fallback trigger, and embeddings routed by alias.
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { clearFaults, injectFaults, startGateway, startSimulator, stop } from '../lib/processes.mjs';

let primary;
let secondary;
let doomed;
let embedder;
let gateway;
let client;

before(async () => {
  // a model length of 64 tokens, so a long prompt gets the model server's context-length error
  primary = await startSimulator(['--model', 'small', '--perf-profile', 'zero', '--max-model-len', '64']);
  secondary = await startSimulator(['--model', 'large', '--perf-profile', 'zero']);
  doomed = await startSimulator(['--model', 'small', '--perf-profile', 'zero']);
  embedder = await startSimulator(['--model', 'bge-m3', '--perf-profile', 'zero']);
  gateway = await startGateway([
    '--infergate.demo.enabled=false',
    `--infergate.pools.primary.endpoints=${primary.url}`,
    `--infergate.pools.secondary.endpoints=${secondary.url}`,
    `--infergate.pools.doomed.endpoints=${doomed.url}`,
    `--infergate.pools.embed.endpoints=${embedder.url}`,
    '--infergate.models.chat.pool=primary',
    '--infergate.models.chat.target-model=small',
    '--infergate.models.chat.fallbacks=chat-large',
    '--infergate.models.chat-large.pool=secondary',
    '--infergate.models.chat-large.target-model=large',
    '--infergate.models.doomed-chat.pool=doomed',
    '--infergate.models.doomed-chat.target-model=small',
    '--infergate.models.doomed-chat.fallbacks=chat-large',
    '--infergate.models.embeddings.pool=embed',
    '--infergate.models.embeddings.target-model=bge-m3',
  ]);
  client = new OpenAI({ baseURL: `${gateway.apiUrl}/v1`, apiKey: 'not-checked', maxRetries: 0, timeout: 60_000 });
});

after(async () => {
  await stop(gateway);
  for (const simulator of [primary, secondary, doomed, embedder]) {
    await stop(simulator);
  }
});

afterEach(async () => {
  await clearFaults(primary);
});

async function chat(model, content) {
  return client.chat.completions.create({ model, messages: [{ role: 'user', content }], max_tokens: 4 }).withResponse();
}

function assertServedByTheFallback({ data, response }) {
  assert.equal(data.model, 'large');
  assert.equal(data.usage.completion_tokens, 4);
  assert.equal(response.headers.get('x-infergate-fallbacks'), '1');
  assert.equal(response.headers.get('x-infergate-model'), 'large');
  assert.equal(response.headers.get('x-infergate-pool'), 'secondary');
}

test('serves from the model itself while it can', async () => {
  const { data, response } = await chat('chat', 'hello');
  assert.equal(data.model, 'small');
  assert.equal(response.headers.get('x-infergate-fallbacks'), '0');
  assert.equal(response.headers.get('x-infergate-model'), 'small');
});

test('falls back when the pool answers 503', async () => {
  await injectFaults(primary, { failNextRequests: 1, failStatus: 503 });
  assertServedByTheFallback(await chat('chat', 'hello'));
});

test('falls back when the pool answers 429', async () => {
  await injectFaults(primary, { failNextRequests: 1, failStatus: 429 });
  assertServedByTheFallback(await chat('chat', 'hello'));
});

test("falls back on the model server's context-length error", async () => {
  const direct = await fetch(`${primary.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'small', messages: [{ role: 'user', content: 'x'.repeat(400) }], max_tokens: 4 }),
  });
  assert.equal(direct.status, 400);
  assert.match((await direct.json()).error.message, /maximum context length/);

  assertServedByTheFallback(await chat('chat', 'x'.repeat(400)));
});

test('falls back when every endpoint of the pool is down', async () => {
  await stop(doomed, 'SIGKILL');
  assertServedByTheFallback(await chat('doomed-chat', 'hello'));
});

test('routes embeddings by alias', async () => {
  const { data, response } = await client.embeddings
    .create({ model: 'embeddings', input: ['the first document', 'the second document'] })
    .withResponse();
  assert.equal(data.model, 'bge-m3');
  assert.equal(data.data.length, 2);
  assert.equal(data.data[0].embedding.length, 64);
  const norm = Math.hypot(...data.data[0].embedding);
  assert.ok(Math.abs(norm - 1) < 1e-5, `norm ${norm}`);
  assert.notDeepEqual(data.data[0].embedding, data.data[1].embedding);
  assert.equal(response.headers.get('x-infergate-pool'), 'embed');
  assert.equal(response.headers.get('x-infergate-model'), 'bge-m3');
});
