// Black-box test of the packaged gateway in demo mode, through the official openai client.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI, { NotFoundError } from 'openai';

const here = path.dirname(fileURLToPath(import.meta.url));
const jar = process.env.GATEWAY_JAR ?? path.resolve(here, '../../../../gateway-app/target/gateway-app.jar');

// The management port's admin: `printf %s dashboard-test-password | java -jar gateway-app.jar hash-password`
const ADMIN_PASSWORD = 'dashboard-test-password';
const ADMIN_PASSWORD_HASH = '{bcrypt}$2a$10$V8b7UahWrY41mT.9HBsGMeGOtkIA0JF/MueNMoyxKbIKZlBGNhB5y';

let gateway;
let output = '';
let client;
let management;

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForReadiness(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (gateway.exitCode !== null) {
      throw new Error(`gateway exited with ${gateway.exitCode}:\n${output}`);
    }
    try {
      const response = await fetch(url);
      if (response.status === 200) {
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`gateway not ready after ${timeoutMs} ms:\n${output}`);
}

before(async () => {
  const apiPort = await freePort();
  const managementPort = await freePort();
  gateway = spawn('java', ['-jar', jar, `--server.port=${apiPort}`, `--management.server.port=${managementPort}`,
    `--infergate.management.admin.password-hash=${ADMIN_PASSWORD_HASH}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  management = `http://127.0.0.1:${managementPort}`;
  gateway.stdout.on('data', (chunk) => { output += chunk; });
  gateway.stderr.on('data', (chunk) => { output += chunk; });
  await waitForReadiness(`http://127.0.0.1:${managementPort}/actuator/health/readiness`, 120_000);
  client = new OpenAI({ baseURL: `http://127.0.0.1:${apiPort}/v1`, apiKey: 'not-checked', maxRetries: 0, timeout: 60_000 });
});

after(async () => {
  if (gateway && gateway.exitCode === null) {
    const exited = new Promise((resolve) => gateway.once('exit', resolve));
    gateway.kill('SIGTERM');
    await exited;
  }
});

test('runs in demo mode and says so', () => {
  assert.match(output, /demo mode/i);
});

test('answers a non-streaming chat completion', async () => {
  const completion = await client.chat.completions.create({
    model: 'demo-llama',
    messages: [{ role: 'system', content: 'You are terse.' }, { role: 'user', content: 'Say hello.' }],
    max_tokens: 12,
  });
  assert.equal(completion.object, 'chat.completion');
  assert.equal(completion.choices.length, 1);
  assert.equal(completion.choices[0].message.role, 'assistant');
  assert.ok(completion.choices[0].message.content.length > 0);
  assert.equal(completion.usage.completion_tokens, 12);
  assert.equal(completion.usage.total_tokens, completion.usage.prompt_tokens + 12);
});

test('streams a chat completion chunk by chunk, with usage at the end', async () => {
  const stream = await client.chat.completions.create({
    model: 'demo-llama',
    messages: [{ role: 'user', content: 'Count to ten.' }],
    max_tokens: 20,
    stream: true,
    stream_options: { include_usage: true },
  });
  let text = '';
  let chunks = 0;
  let usage;
  for await (const chunk of stream) {
    chunks++;
    if (chunk.choices.length > 0) {
      text += chunk.choices[0].delta.content ?? '';
    }
    if (chunk.usage) {
      usage = chunk.usage;
    }
  }
  assert.ok(chunks >= 20, `expected a chunk per token, got ${chunks}`);
  assert.ok(text.length > 0);
  assert.equal(usage.completion_tokens, 20);
});

test('lists the demo models', async () => {
  const ids = [];
  for await (const model of client.models.list()) {
    ids.push(model.id);
  }
  assert.ok(ids.includes('demo-llama'), `models: ${ids}`);
  assert.ok(ids.includes('demo-lora'), `models: ${ids}`);
});

test('serves the LoRA model', async () => {
  const completion = await client.chat.completions.create({
    model: 'demo-lora',
    messages: [{ role: 'user', content: 'Hello adapter.' }],
    max_tokens: 5,
  });
  assert.equal(completion.usage.completion_tokens, 5);
});

test('raises NotFoundError for an unknown model', async () => {
  await assert.rejects(
    client.chat.completions.create({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] }),
    (error) => {
      assert.ok(error instanceof NotFoundError, `got ${error?.constructor?.name}: ${error?.message}`);
      assert.equal(error.status, 404);
      assert.equal(error.code, 'model_not_found');
      return true;
    },
  );
});

test('the management port asks for the admin\'s credentials', async () => {
  const anonymous = await fetch(`${management}/actuator/inference`);
  assert.equal(anonymous.status, 401);
  assert.match(anonymous.headers.get('www-authenticate'), /^Basic realm=/);
  const authorization = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;
  const admin = await fetch(`${management}/actuator/inference`, { headers: { authorization } });
  assert.equal(admin.status, 200);
  assert.ok(Array.isArray((await admin.json()).pools));
});
