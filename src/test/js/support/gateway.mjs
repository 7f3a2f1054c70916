// Starts the packaged gateway jar on free ports for a black-box test file, and stops it afterwards.
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const jar = process.env.GATEWAY_JAR ?? path.resolve(here, '../../../../gateway-app/target/gateway-app.jar');

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

/** Starts `java -jar gateway-app.jar ARGS` and resolves once its readiness probe answers 200. */
export async function startGateway(args = [], timeoutMs = 120_000) {
  const apiPort = await freePort();
  const managementPort = await freePort();
  const gateway = {
    apiPort,
    managementPort,
    output: '',
    baseURL: `http://127.0.0.1:${apiPort}/v1`,
    managementURL: `http://127.0.0.1:${managementPort}`,
  };
  gateway.process = spawn('java', ['-jar', jar, `--server.port=${apiPort}`, `--management.server.port=${managementPort}`, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  gateway.process.stdout.on('data', (chunk) => { gateway.output += chunk; });
  gateway.process.stderr.on('data', (chunk) => { gateway.output += chunk; });
  gateway.stop = async () => {
    if (gateway.process.exitCode === null) {
      const exited = new Promise((resolve) => gateway.process.once('exit', resolve));
      gateway.process.kill('SIGTERM');
      await exited;
    }
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (gateway.process.exitCode !== null) {
      throw new Error(`gateway exited with ${gateway.process.exitCode}:\n${gateway.output}`);
    }
    try {
      const response = await fetch(`${gateway.managementURL}/actuator/health/readiness`);
      if (response.status === 200) {
        return gateway;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await gateway.stop();
  throw new Error(`gateway not ready after ${timeoutMs} ms:\n${gateway.output}`);
}
