import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// docker-compose.yml and the Dockerfile cannot be run here (no Docker engine), so they are checked as
// files: the topology as written, and as Debian's docker-compose 1.29 resolves it (`config`, which needs
// no engine; .ci/run installs it).

const root = fileURLToPath(new URL('../..', import.meta.url));
const composeFile = path.join(root, 'docker-compose.yml');

interface ComposeService {
  image?: string;
  build?: unknown;
  container_name?: string;
  command?: string | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  ports?: Array<string | number | { target?: number | string; published?: number | string }>;
  healthcheck?: { test?: string | string[] };
  depends_on?: string[] | Record<string, { condition?: string }>;
  networks?: string[] | Record<string, { ipv4_address?: string } | null>;
}
interface ComposeFile {
  services: Record<string, ComposeService>;
}

const SERVICES = {
  'command-api': 'command-api/src/main.ts',
  'query-api': 'query-api/src/main.ts',
  projections: 'projections/src/main.ts',
  'webhook-dispatcher': 'webhook-dispatcher/src/main.ts',
} as const;
const INFRA = ['postgres', 'kurrentdb', 'kafka', 'mailpit', 'billing-test'] as const;

const hasDockerCompose = (process.env.PATH ?? '').split(path.delimiter).some((dir) => {
  try {
    accessSync(path.join(dir, 'docker-compose'), constants.X_OK);
    return true;
  } catch {
    return false;
  }
});
const skipReason = hasDockerCompose
  ? ''
  : ' [skipped: no docker-compose binary on PATH; `apt-get install -y docker-compose`, as .ci/run does]';

/** Runs `docker-compose config` on the file with exactly the given variables (an empty env file). */
function composeConfig(vars: Record<string, string>) {
  const dir = mkdtempSync(path.join(tmpdir(), 'mrn-compose-'));
  try {
    const envFile = path.join(dir, 'empty.env');
    writeFileSync(envFile, '');
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...vars };
    return spawnSync('docker-compose', ['--env-file', envFile, '-f', composeFile, 'config'], {
      cwd: root,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const words = (value: string | string[] | undefined): string =>
  Array.isArray(value) ? value.join(' ') : (value ?? '');

function environment(service: ComposeService): Record<string, string> {
  const env = service.environment ?? {};
  if (Array.isArray(env))
    return Object.fromEntries(
      env.map((entry) => [entry.split('=')[0] ?? '', entry.split('=').slice(1).join('=')]),
    );
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === null ? '' : String(v)]));
}

function dependencies(service: ComposeService): Record<string, string | undefined> {
  const deps = service.depends_on ?? {};
  if (Array.isArray(deps)) return Object.fromEntries(deps.map((d) => [d, undefined]));
  return Object.fromEntries(Object.entries(deps).map(([name, d]) => [name, d.condition]));
}

function containerPort(port: string | number | { target?: number | string }): string {
  if (typeof port === 'object') return String(port.target);
  return String(port).split(':').at(-1)?.split('/')[0] ?? '';
}

/** The gateway's fixed address on the compose network. */
function gatewayAddress(compose: ComposeFile): string | undefined {
  const networks = compose.services.gateway?.networks;
  if (!networks || Array.isArray(networks)) return undefined;
  return networks.default?.ipv4_address;
}

/** What must hold of the topology, as written and as resolved alike. */
function expectTopology(compose: ComposeFile): void {
  const services = compose.services;
  expect(Object.keys(services).sort()).toEqual([...INFRA, ...Object.keys(SERVICES), 'gateway'].sort());

  // Only the gateway publishes a port, and no app container has a fixed name: `--scale` works.
  const publishing = Object.entries(services)
    .filter(([, s]) => (s.ports ?? []).length > 0)
    .map(([name]) => name);
  // (Mailpit's inbox page too: the e-mails the product sends are read there.)
  expect(publishing.sort()).toEqual(['gateway', 'mailpit']);
  expect(services.gateway?.ports?.map(containerPort)).toEqual(['3000']);
  for (const [name, service] of Object.entries(services))
    expect(service.container_name, `${name} has a container_name`).toBeUndefined();

  const appImage = services.gateway?.image;
  expect(appImage).toBeTruthy();
  for (const [name, main] of Object.entries(SERVICES)) {
    const service = services[name];
    expect(service, name).toBeDefined();
    if (!service) continue;
    expect(service.image, `${name} runs the one image`).toBe(appImage);
    expect(service.build, `${name} is built from the Dockerfile`).toBeDefined();
    expect(words(service.command)).toBe(`node --import tsx ${main}`);
    expect(words(service.healthcheck?.test)).toMatch(/http:\/\/127\.0\.0\.1:8080\/(health|ready)\b/);

    const env = environment(service);
    expect(env).toMatchObject({
      PORT: '8080',
      DATABASE_URL: 'postgres://mrn:mrn@postgres:5432/mrn',
      EVENT_STORE: 'kurrentdb',
      EVENTSTORE_URL: 'kurrentdb://kurrentdb:2113?tls=false',
      KAFKA_BROKERS: 'kafka:9092',
      SMTP_URL: expect.stringContaining('smtp://mailpit:1025'),
      BILLING_TEST_URL: 'http://billing-test:12111',
      METRICS_HOST: '0.0.0.0',
      METRICS_PORT: '9464',
    });
    // The services believe X-Forwarded-For from the gateway's fixed address alone (issue 30, item 3).
    expect(env.TRUST_PROXY, name).toBe(gatewayAddress(compose));
    for (const key of ['JWT_SECRET', 'PUBLIC_URL', 'LOG_LEVEL'])
      expect(env, `${name}: ${key}`).toHaveProperty(key);
    expect(dependencies(service)).toEqual({
      postgres: 'service_healthy',
      kurrentdb: 'service_healthy',
      kafka: 'service_healthy',
      mailpit: 'service_healthy',
      'billing-test': 'service_healthy',
    });
  }

  const gateway = services.gateway!;
  expect(words(gateway.command)).toBe('node --import tsx server/src/gateway-main.ts');
  expect(environment(gateway)).toMatchObject({
    PORT: '3000',
    COMMAND_API_URLS: 'http://command-api:8080',
    QUERY_API_URLS: 'http://query-api:8080',
    WEBHOOKS_URLS: 'http://webhook-dispatcher:8080',
    DATABASE_URL: 'postgres://mrn:mrn@postgres:5432/mrn',
    BILLING_TEST_URL: 'http://billing-test:12111',
  });
  expect(environment(gateway)).toHaveProperty('JWT_SECRET');
  // The gateway is the edge: it believes no client's X-Forwarded-For.
  expect(environment(gateway)).not.toHaveProperty('TRUST_PROXY');
  const billing = services['billing-test']!;
  expect(words(billing.command)).toBe('node --import tsx server/src/billing-test-main.ts');
  expect(environment(billing)).toMatchObject({
    PORT: '12111',
    STRIPE_WEBHOOK_URL: 'http://gateway:3000/api/stripe/webhooks',
  });
  expect(dependencies(gateway)).toEqual(
    Object.fromEntries(Object.keys(SERVICES).map((name) => [name, 'service_healthy'])),
  );
  // Healthy once every service behind it is ready, not merely alive (issue 30, item 4).
  expect(words(gateway.healthcheck?.test)).toMatch(/http:\/\/127\.0\.0\.1:3000\/ready\b/);

  expect(services.postgres?.image).toBe('postgres:18');
  expect(words(services.postgres?.healthcheck?.test)).toContain('pg_isready');
  expect(services.kurrentdb?.image).toMatch(/kurrentdb/);
  expect(words(services.kurrentdb?.healthcheck?.test)).toContain('/health/live');
  expect(services.kafka?.image).toMatch(/kafka/);
  expect(environment(services.kafka!)).toMatchObject({ KAFKA_PROCESS_ROLES: 'broker,controller' });
  expect(words(services.kafka?.healthcheck?.test)).toContain('kafka-broker-api-versions');
}

describe('docker-compose.yml', () => {
  it('as written: the split topology', () => {
    const compose = parse(readFileSync(composeFile, 'utf8'), { merge: true }) as ComposeFile;
    expectTopology(compose);
    const env = environment(compose.services['query-api']!);
    // Compose's own interpolation, as the file holds it.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: not a template: docker-compose fills it in
    expect(env.JWT_SECRET).toBe('${JWT_SECRET:?set JWT_SECRET}');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: not a template: docker-compose fills it in
    expect(compose.services.gateway?.ports).toEqual(['${PORT:-3000}:3000']);
  });

  it.skipIf(!hasDockerCompose)(
    `docker-compose config accepts it and resolves the same topology${skipReason}`,
    () => {
      const result = composeConfig({ JWT_SECRET: 'compose-test-secret' });
      expect(result.error).toBeUndefined();
      expect(result.stderr).not.toMatch(/error|invalid|unsupported/i);
      expect(result.status, result.stderr).toBe(0);
      const compose = parse(result.stdout) as ComposeFile;
      expectTopology(compose);
      for (const name of Object.keys(SERVICES))
        expect(environment(compose.services[name]!)).toMatchObject({
          JWT_SECRET: 'compose-test-secret',
          PUBLIC_URL: 'http://localhost:3000',
          LOG_LEVEL: 'info',
        });
      expect(
        compose.services.gateway?.ports?.map((p) => (typeof p === 'object' ? String(p.published) : p)),
      ).toEqual(['3000']);
      // Every file a container runs exists in the repository.
      for (const service of Object.values(compose.services)) {
        const file = words(service.command).match(/\S+\.ts$/)?.[0];
        if (file) expect(() => accessSync(path.join(root, file)), file).not.toThrow();
      }
    },
    60_000,
  );

  it.skipIf(!hasDockerCompose)(
    `docker-compose refuses to start without JWT_SECRET${skipReason}`,
    () => {
      const result = composeConfig({});
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain('set JWT_SECRET');
    },
    60_000,
  );
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
  const workspaces = (
    JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { workspaces: string[] }
  ).workspaces;

  it('installs every workspace from its manifest, builds the web app and runs as a non-root user', () => {
    expect(dockerfile).toMatch(/^FROM node:24-bookworm-slim\b/m);
    // npm links workspaces only when each one's package.json is there at install time.
    for (const workspace of workspaces)
      expect(dockerfile).toContain(`COPY ${workspace}/package.json ${workspace}/`);
    expect(dockerfile).toMatch(/^RUN .*npm install --no-audit --no-fund/m);
    expect(dockerfile).toMatch(/^RUN npm run build -w @mrn\/web$/m);
    const user = dockerfile.match(/^USER (\S+)/m)?.[1];
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)$/);
  });

  it('.dockerignore keeps installed, built and local files out of the build context', () => {
    const ignored = readFileSync(path.join(root, '.dockerignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'));
    expect(ignored).toEqual(
      expect.arrayContaining(['**/node_modules', '.test-data', '**/dist', 'e2e/screenshots', '.git']),
    );
  });
});
