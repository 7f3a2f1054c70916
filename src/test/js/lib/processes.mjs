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

/** Starts the gateway with `args` and waits until its readiness probe is UP. */
export async function startGateway(args = []) {
  const apiPort = await freePort();
  const managementPort = await freePort();
  const gateway = startJava(gatewayJar,
    [`--server.port=${apiPort}`, `--management.server.port=${managementPort}`, ...args]);
  gateway.apiUrl = `http://127.0.0.1:${apiPort}`;
  gateway.managementUrl = `http://127.0.0.1:${managementPort}`;
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
