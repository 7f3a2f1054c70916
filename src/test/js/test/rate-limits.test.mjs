// Black-box test of the packaged gateway with API keys and rate limits (memory store) in demo mode, through the
// official openai client: keys made with the jar's own hash-api-key command, tokens charged from real usage for
// streamed and non-streamed requests, and what a limited client sees.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI, { AuthenticationError, PermissionDeniedError, RateLimitError } from 'openai';
import { gatewayJar, startGateway, stop } from '../lib/processes.mjs';

const TEAM_SECRET = 'sk-npm-team-4c1e77d0';
const TIGHT_SECRET = 'sk-npm-tight-9b02aa31';
const BUDGET_SECRET = 'sk-npm-budget-51f0c2e8';

let gateway;
let team;
let tight;

function hashApiKey(secret) {
  const result = spawnSync('java', ['-jar', gatewayJar, 'hash-api-key'], { input: `${secret}\n`, encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  return result.stdout.trim();
}

before(async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'infergate-limits-'));
  const config = path.join(dir, 'limits.yml');
  writeFileSync(config, `
infergate:
  gateway:
    assumed-max-tokens: 2500
  auth:
    enabled: true
    keys:
      npm-team:
        sha256: ${hashApiKey(TEAM_SECRET)}
        tenant: npm
        models: ["demo-llama"]
        limits: {rpm: 1000, tpm: 1000000}
      npm-tight:
        sha256: ${hashApiKey(TIGHT_SECRET)}
        tenant: tight
        limits: {tpm: 3000}
      npm-budget:
        sha256: ${hashApiKey(BUDGET_SECRET)}
        tenant: budgeted
        limits: {budget: {amount: 0.02, period: day}}
  models:
    # the demo model priced: 1,000 per million output tokens, so max_tokens 10 may cost 0.01
    demo-llama: {price: {input: 0, output: 1000}}
`);
  gateway = await startGateway([`--spring.config.additional-location=file:${config}`]);
  team = new OpenAI({ baseURL: `${gateway.apiUrl}/v1`, apiKey: TEAM_SECRET, maxRetries: 0, timeout: 60_000 });
  tight = new OpenAI({ baseURL: `${gateway.apiUrl}/v1`, apiKey: TIGHT_SECRET, maxRetries: 0, timeout: 60_000 });
});

after(async () => {
  await stop(gateway);
});

async function tenant(name) {
  const report = await (await gateway.management('/actuator/inference')).json();
  const found = report.tenants.find((t) => t.name === name);
  assert.ok(found, `no tenant ${name} in ${JSON.stringify(report.tenants)}`);
  return found;
}

async function drain(stream) {
  const chunks = [];
  for await (const chunk of stream) {
    chunks.push(chunk);
  }
  return chunks;
}

const messages = [{ role: 'user', content: 'Charge me exactly what I use.' }];

test('a wrong key is an AuthenticationError and a model outside the key is a PermissionDeniedError', async () => {
  const stranger = new OpenAI({ baseURL: `${gateway.apiUrl}/v1`, apiKey: 'sk-not-a-key', maxRetries: 0 });
  await assert.rejects(stranger.chat.completions.create({ model: 'demo-llama', messages }), (error) => {
    assert.ok(error instanceof AuthenticationError, `got ${error?.constructor?.name}`);
    assert.equal(error.code, 'invalid_api_key');
    return true;
  });
  await assert.rejects(team.chat.completions.create({ model: 'demo-lora', messages }), (error) => {
    assert.ok(error instanceof PermissionDeniedError, `got ${error?.constructor?.name}`);
    assert.equal(error.code, 'model_not_allowed');
    return true;
  });
  assert.doesNotMatch(gateway.output, /sk-not-a-key|sk-npm-team/);
});

test('charges the tenant the tokens the model server reports, streamed or not, with or without include_usage', async () => {
  const before = await tenant('npm');

  const { data: completion, response } = await team.chat.completions
    .create({ model: 'demo-llama', messages, max_tokens: 20 })
    .withResponse();
  const plain = await drain(await team.chat.completions.create({ model: 'demo-llama', messages, max_tokens: 20, stream: true }));
  const withUsage = await drain(await team.chat.completions.create({
    model: 'demo-llama', messages, max_tokens: 20, stream: true, stream_options: { include_usage: true },
  }));

  const promptTokens = completion.usage.prompt_tokens;
  assert.equal(completion.usage.completion_tokens, 20);
  assert.equal(response.headers.get('x-ratelimit-limit-requests'), '1000');
  assert.equal(response.headers.get('x-ratelimit-limit-tokens'), '1000000');
  // the gateway asked for the usage chunk of the plain stream and removed it: the client sees none
  assert.ok(plain.every((chunk) => !chunk.usage), 'usage chunk leaked into a stream that did not ask for it');
  assert.equal(plain.length, 21, 'a role chunk and one chunk per token');
  assert.deepEqual(withUsage.at(-1).usage, { ...completion.usage, total_tokens: promptTokens + 20 });
  const after = await tenant('npm');
  assert.equal(after.requests - before.requests, 3);
  assert.equal(after.inputTokens - before.inputTokens, 3 * promptTokens);
  assert.equal(after.outputTokens - before.outputTokens, 3 * 20);
});

test('a spent budget is a RateLimitError with code insufficient_quota that the client does not retry', async () => {
  // the default retries: the gateway's x-should-retry: false must keep the client from sending it again
  const budgeted = new OpenAI({ baseURL: `${gateway.apiUrl}/v1`, apiKey: BUDGET_SECRET, maxRetries: 2, timeout: 60_000 });
  for (let i = 0; i < 2; i++) {
    const completion = await budgeted.chat.completions.create({ model: 'demo-llama', messages, max_tokens: 10 });
    assert.equal(completion.usage.completion_tokens, 10);
  }
  // the second request's cost replaces its hold once its response has ended, a moment after the client has it
  const spent = async () => (await (await gateway.management('/actuator/inference')).json()).budgets
    .find((b) => b.scope === 'key' && b.subject === 'npm-budget');
  for (let i = 0; i < 50 && (await spent()).held > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  await assert.rejects(budgeted.chat.completions.create({ model: 'demo-llama', messages, max_tokens: 10 }), (error) => {
    assert.ok(error instanceof RateLimitError, `got ${error?.constructor?.name}: ${error?.message}`);
    assert.equal(error.status, 429);
    assert.equal(error.code, 'insufficient_quota');
    assert.equal(error.type, 'insufficient_quota');
    assert.match(error.message, /^429 Budget exhausted for key 'npm-budget': 0\.02 USD per day, 0\.02 USD spent; this request may cost up to 0\.01 USD\. It resets at \d{4}-\d\d-\d\dT00:00:00Z\.$/);
    assert.equal(error.headers.get('x-infergate-dropped-reason'), 'budget-exhausted');
    assert.equal(error.headers.get('x-should-retry'), 'false');
    return true;
  });
  const budgetedTenant = await tenant('budgeted');
  assert.equal(budgetedTenant.requests, 2);
  assert.equal(budgetedTenant.budgetExhausted, 1, 'the client sent the refused request once');
  const report = await (await gateway.management('/actuator/inference')).json();
  const budget = report.budgets.find((b) => b.scope === 'key' && b.subject === 'npm-budget');
  assert.deepEqual({ amount: budget.amount, spent: budget.spent, held: budget.held, reached: budget.reached },
    { amount: 0.02, spent: 0.02, held: 0, reached: true });
});

test('a reservation is replaced by the real usage, and a reached TPM limit is a RateLimitError saying when to retry', async () => {
  // no max_tokens: each stream reserves its prompt + 2500 of 3000 tokens and the simulator generates 16
  const first = await drain(await tight.chat.completions.create({ model: 'demo-llama', messages, stream: true }));
  const second = await drain(await tight.chat.completions.create({ model: 'demo-llama', messages, stream: true }));
  assert.equal(first.length, 17);
  assert.equal(second.length, 17);

  await assert.rejects(tight.chat.completions.create({ model: 'demo-llama', messages, max_tokens: 2990 }), (error) => {
    assert.ok(error instanceof RateLimitError, `got ${error?.constructor?.name}: ${error?.message}`);
    assert.equal(error.status, 429);
    assert.equal(error.code, 'rate_limit_exceeded');
    assert.equal(error.type, 'tokens');
    const message = /^429 Rate limit reached for demo-llama on tokens per min \(TPM\): Limit 3000, Used (\d+), Requested (\d+)\. Please try again in [0-9.]+(ms|s)\.$/.exec(error.message);
    assert.ok(message, error.message);
    // the two streams were charged their real usage (prompt + 16 each), not their reservations of 2500+
    assert.ok(Number(message[1]) < 100, `used ${message[1]}`);
    assert.ok(Number(message[2]) > 2990, `requested ${message[2]}`);
    const retryMs = Number(error.headers.get('retry-after-ms'));
    assert.ok(retryMs > 0, `retry-after-ms ${retryMs}`);
    assert.equal(error.headers.get('retry-after'), String(Math.ceil(retryMs / 1000)));
    assert.equal(error.headers.get('x-infergate-dropped-reason'), 'rate-limited');
    return true;
  });
  const tightTenant = await tenant('tight');
  assert.equal(tightTenant.rateLimited, 1);
  assert.ok(tightTenant.limits.some((limit) => limit.limit === 'tpm' && limit.value === 3000), JSON.stringify(tightTenant.limits));
});
