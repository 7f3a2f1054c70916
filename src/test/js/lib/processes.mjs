// The processes the black-box tests drive: the packaged gateway and simulated model servers, on free ports.
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

export const gatewayJar = process.env.GATEWAY_JAR ?? path.join(root, 'gateway-app/target/gateway-app.jar');

export const simulatorJar = process.env.SIM_JAR ?? path.join(root, 'model-server-sim/target/model-server-sim.jar');

export function freePort() {
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

// The management port's admin in every started gateway:
// `printf %s dashboard-test-password | java -jar gateway-app.jar hash-password`
export const ADMIN_PASSWORD = 'dashboard-test-password';
const ADMIN_PASSWORD_HASH = '{bcrypt}$2a$10$V8b7UahWrY41mT.9HBsGMeGOtkIA0JF/MueNMoyxKbIKZlBGNhB5y';

/** The Authorization header of the management port's admin. */
export const adminAuthorization = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;

function startJava(jar, args) {
  const child = spawn('java', ['-jar', jar, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const started = { child, output: '' };
  child.stdout.on('data', (chunk) => { started.output += chunk; });
  child.stderr.on('data', (chunk) => { started.output += chunk; });
  return started;
}

/** Stops a started process and waits for it to exit; SIGKILL for a crash rather than a shutdown. */
export async function stop(started, signal = 'SIGTERM') {
  if (started && started.child.exitCode === null && started.child.signalCode === null) {
    const exited = new Promise((resolve) => started.child.once('exit', resolve));
    started.child.kill(signal);
    await exited;
  }
}

async function waitUntil(started, what, check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (started.child.exitCode !== null) {
      throw new Error(`${what} exited with ${started.child.exitCode}:\n${started.output}`);
    }
    if (await check()) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} not ready after ${timeoutMs} ms:\n${started.output}`);
}

/**
 * Starts the gateway with `args` and waits until its readiness probe is UP. Its management port's admin has
 * ADMIN_PASSWORD; `gateway.management(path)` fetches from the management port with the admin's credentials.
 */
export async function startGateway(args = []) {
  const apiPort = await freePort();
  const managementPort = await freePort();
  const gateway = startJava(gatewayJar, [`--server.port=${apiPort}`, `--management.server.port=${managementPort}`,
    `--infergate.management.admin.password-hash=${ADMIN_PASSWORD_HASH}`, ...args]);
  gateway.apiUrl = `http://127.0.0.1:${apiPort}`;
  gateway.managementUrl = `http://127.0.0.1:${managementPort}`;
  gateway.management = (pathAndQuery) => fetch(`${gateway.managementUrl}${pathAndQuery}`,
    { headers: { authorization: adminAuthorization } });
  await waitUntil(gateway, 'gateway', async () => {
    try {
      return (await fetch(`${gateway.managementUrl}/actuator/health/readiness`)).status === 200;
    } catch {
      return false;
    }
  }, 120_000);
  return gateway;
}

/** Starts a simulated model server on a free port and waits until it says where it serves. */
export async function startSimulator(args) {
  const simulator = startJava(simulatorJar, ['--port', '0', ...args]);
  await waitUntil(simulator, 'simulator', async () => /on (http:\/\/\S+)/.test(simulator.output), 30_000);
  simulator.url = simulator.output.match(/on (http:\/\/\S+)/)[1];
  return simulator;
}

/** Sets faults on a simulator: see its README, "Fault injection". */
export async function injectFaults(simulator, faults) {
  const response = await fetch(`${simulator.url}/sim/faults`, { method: 'POST', body: JSON.stringify(faults) });
  if (response.status !== 200) {
    throw new Error(`faults not set: ${response.status} ${await response.text()}`);
  }
}

export async function clearFaults(simulator) {
  await fetch(`${simulator.url}/sim/faults`, { method: 'DELETE' });
}

/** Whether a Redis answers PING on `port` of the loopback address. */
function redisAnswers(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let reply = '';
    socket.setTimeout(1_000, () => socket.destroy());
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk;
      if (reply.includes('\r\n')) {
        socket.end();
        resolve(reply.startsWith('+PONG'));
      }
    });
    socket.on('error', () => resolve(false));
    socket.on('close', () => resolve(false));
  });
}

/**
 * Starts a real Redis on the loopback address, without persistence, and waits until it answers: `redis-server`
 * (Debian package redis-server), or the executable INFERGATE_REDIS_SERVER names. On a free port, or on `port`
 * to start it again where the gateways look for it; `redis.url` is its redis:// URL.
 */
export async function startRedis(port) {
  const chosen = port ?? await freePort();
  const executable = process.env.INFERGATE_REDIS_SERVER ?? 'redis-server';
  const child = spawn(executable, ['--port', String(chosen), '--bind', '127.0.0.1', '--save', '',
    '--appendonly', 'no', '--protected-mode', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const redis = { child, output: '', port: chosen, url: `redis://127.0.0.1:${chosen}` };
  child.stdout.on('data', (chunk) => { redis.output += chunk; });
  child.stderr.on('data', (chunk) => { redis.output += chunk; });
  child.on('error', (error) => { redis.output += `cannot run ${executable}: ${error.message}`; });
  await waitUntil(redis, executable, () => redisAnswers(chosen), 20_000);
  return redis;
}
