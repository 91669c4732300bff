/**
 * The production topology's files (docs/deployment.md), held to what the server and the proxy need:
 * compose.yaml, .env.example, deploy/nginx.conf, the Dockerfile. Docker cannot run on the test
 * machine; this suite reads the files, and tests/scale/proxy-topology.test.ts runs the same proxy
 * configuration in front of real server processes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT_DIR, readConfig } from '../../server/config';
import { fillNginxTemplate, NGINX_TEMPLATE, templatePlaceholders } from './nginx-template';

const read = (file: string) => fs.readFileSync(path.join(ROOT_DIR, file), 'utf8');

interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  networks?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}
interface Compose {
  services: Record<string, Service>;
  networks: Record<string, { internal?: boolean; ipam?: { config: { subnet: string }[] } }>;
  volumes: Record<string, unknown>;
}

const composeText = read('compose.yaml');
const compose = parse(composeText, { merge: true }) as Compose;
const dockerfile = read('Dockerfile');
const template = fs.readFileSync(NGINX_TEMPLATE, 'utf8');

/** `KEY=value` lines of .env.example (comments and blank lines left out). */
const envExample = Object.fromEntries(
  read('.env.example')
    .split('\n')
    .filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
);

/** Every `${NAME...}` compose interpolates (`$$` is a literal dollar). */
const interpolated = [...composeText.replaceAll('$$', '').matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1]!);

/** Compose's interpolation of one value: ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, ${VAR?error}. */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}/g,
    (_, name: string, colon: string, op: string, arg: string) => {
      const set = env[name];
      const present = colon ? set !== undefined && set !== '' : set !== undefined;
      if (present) return set!;
      if (op === '?') throw new Error(`compose.yaml: ${name} is required: ${arg}`);
      return op === '-' ? arg : '';
    },
  );
}

/** The variables docs/configuration.md documents (its table's first column). */
const documented = new Set([...read('docs/configuration.md').matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((match) => match[1]!));

const REPLICAS = ['lightbar-1', 'lightbar-2'];
/** The replicas' port: the Dockerfile's EXPOSE. */
const exposed = /^EXPOSE (\d+)$/m.exec(dockerfile)?.[1];

describe('compose.yaml', () => {
  it('has Postgres, NATS, two server processes and the proxy, and only the proxy publishes a port', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['lightbar-1', 'lightbar-2', 'nats', 'postgres', 'proxy']);
    expect(compose.services.postgres!.image).toBe('postgres:17');
    expect(compose.services.nats!.image).toMatch(/^nats:2(-|$)/);
    expect(compose.services.nats!.command).toContain('-js');
    expect(compose.services.proxy!.image).toBe('nginx:1.27');
    for (const [name, service] of Object.entries(compose.services)) {
      if (name === 'proxy') expect(service.ports, name).toHaveLength(1);
      else expect(service.ports, `${name} publishes no port`).toBeUndefined();
    }
    // Postgres and NATS keep their data in volumes.
    expect(compose.services.postgres!.volumes!.some((volume) => volume.endsWith(':/var/lib/postgresql/data'))).toBe(true);
    expect(compose.services.nats!.volumes).toHaveLength(1);
  });

  it("gives both server processes the same image and an environment the server's schema accepts", () => {
    const [first, second] = REPLICAS.map((name) => compose.services[name]!);
    expect(second).toEqual(first);
    expect(first!.build ?? first!.image).toBeTruthy();
    const environment = Object.fromEntries(
      Object.entries(first!.environment!).map(([key, value]) => [key, interpolate(String(value), envExample)]),
    );
    for (const name of Object.keys(environment))
      expect(documented.has(name), `${name} is a variable docs/configuration.md lists`).toBe(true);
    // The same parse the server runs at start: a wrong value throws, naming it.
    const config = readConfig(environment);
    expect(config.databaseUrl).toMatch(/^postgres:\/\/lightbar:[^@]+@postgres:5432\/lightbar$/);
    expect(config.natsUrl).toBe('nats://nats:4222');
    expect(config.demo).toBe(false);
    expect(config.shutdownDrainMs).toBeGreaterThan(0);
    expect(config.metricsToken).toBeTruthy();
    expect(config.publicUrl).toBe(envExample.PUBLIC_URL);
    // The replicas listen on the port the image exposes (PORT is the image's own).
    expect(String(config.port)).toBe(/^ {4}PORT=(\d+)/m.exec(dockerfile)?.[1]);
    expect(String(config.port)).toBe(exposed);
  });

  it("trusts X-Forwarded-For from the proxy's network only", () => {
    const subnet = interpolate(compose.networks.front!.ipam!.config[0]!.subnet, envExample);
    const environment = Object.fromEntries(
      Object.entries(compose.services['lightbar-1']!.environment!).map(([key, value]) => [key, interpolate(String(value), envExample)]),
    );
    expect(readConfig(environment).trustProxy).toEqual([subnet]);
    expect(compose.services.proxy!.networks).toEqual(['front']);
    for (const name of REPLICAS) expect(compose.services[name]!.networks).toContain('front');
    // Postgres and NATS are on the internal network only.
    expect(compose.networks.back!.internal).toBe(true);
    expect(compose.services.postgres!.networks).toEqual(['back']);
    expect(compose.services.nats!.networks).toEqual(['back']);
  });

  it('starts the server processes after Postgres and NATS are healthy, and the proxy after both', () => {
    for (const name of REPLICAS) {
      expect(compose.services[name]!.depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        nats: { condition: 'service_healthy' },
      });
    }
    expect(Object.keys(compose.services.proxy!.depends_on!).sort()).toEqual(REPLICAS);
  });

  it('checks health with pg_isready, NATS /healthz, and the server’s /ready', () => {
    expect(compose.services.postgres!.healthcheck!.test.join(' ')).toContain('pg_isready');
    expect(compose.services.nats!.healthcheck!.test.join(' ')).toContain('/healthz');
    expect(compose.services.nats!.command).toEqual(expect.arrayContaining(['-m', '8222']));
    const replica = compose.services['lightbar-1']!.healthcheck!.test.join(' ');
    expect(replica).toMatch(new RegExp(`http://127\\.0\\.0\\.1:${exposed}/(ready|health)'`));
  });

  it('lists every variable it reads in .env.example', () => {
    expect(interpolated.length).toBeGreaterThan(0);
    for (const name of new Set(interpolated)) expect(Object.keys(envExample), `${name} in .env.example`).toContain(name);
    // And nothing .env.example offers goes unread.
    for (const name of Object.keys(envExample)) expect(interpolated, `${name} read by compose.yaml`).toContain(name);
  });
});

describe('deploy/nginx.conf', () => {
  const proxy = compose.services.proxy!;
  const filled = fillNginxTemplate(proxy.environment!, template);

  it("is the proxy's template, every placeholder given by compose.yaml", () => {
    expect(proxy.volumes).toContain('./deploy/nginx.conf:/etc/nginx/templates/nginx.conf.template:ro');
    expect(proxy.environment!.NGINX_ENVSUBST_OUTPUT_DIR).toBe('/etc/nginx');
    expect(proxy.environment!.NGINX_ENVSUBST_FILTER).toBe('^LIGHTBAR_');
    expect(templatePlaceholders(template).sort()).toEqual(['LIGHTBAR_PROXY_PORT', 'LIGHTBAR_UPSTREAM_1', 'LIGHTBAR_UPSTREAM_2']);
    // The published port reaches the port the proxy listens on.
    expect(proxy.ports![0]).toMatch(new RegExp(`:${proxy.environment!.LIGHTBAR_PROXY_PORT}$`));
    expect(filled).toContain(`listen ${proxy.environment!.LIGHTBAR_PROXY_PORT};`);
  });

  it('balances over both server processes and skips one that is down', () => {
    for (const upstream of ['lightbar', 'lightbar_auth', 'lightbar_ingest']) {
      const block = new RegExp(`upstream ${upstream} \\{([^}]*)\\}`).exec(filled)?.[1] ?? '';
      for (const name of REPLICAS) expect(block, `${upstream} has ${name}`).toContain(`server ${name}:${exposed} `);
    }
    expect(filled).toMatch(/proxy_next_upstream error timeout/);
    // One device's messages, and one client's sign-ins, keep reaching one process.
    expect(filled).toMatch(/location = \/ingest \{\s*proxy_pass http:\/\/lightbar_ingest;/);
    expect(filled).toMatch(/upstream lightbar_ingest \{\s*hash \$http_x_api_key consistent;/);
    expect(filled).toMatch(/upstream lightbar_auth \{\s*hash \$remote_addr consistent;/);
  });

  it('upgrades the live socket and forwards the client address', () => {
    expect(filled).toContain('proxy_http_version 1.1;');
    expect(filled).toContain('proxy_set_header Upgrade $http_upgrade;');
    expect(filled).toContain('proxy_set_header Connection $connection_upgrade;');
    expect(filled).toMatch(/map \$http_upgrade \$connection_upgrade \{\s*default upgrade;/);
    expect(filled).toMatch(/location = \/cable \{[^}]*proxy_pass http:\/\/lightbar;/);
    expect(filled).toContain('proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;');
  });

  it('does not serve /metrics publicly', () => {
    expect(filled).toMatch(/location = \/metrics \{\s*return 404;\s*\}/);
  });
});

describe('Dockerfile', () => {
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));

  it('builds in one stage and runs a non-root node:24-slim with production dependencies only', () => {
    expect(dockerfile).toMatch(/^FROM node:24-slim AS build$/m);
    expect(dockerfile).toMatch(/RUN npm ci\b/);
    expect(dockerfile).toMatch(/npm run build && node scripts\/server-bundle\.mjs/);
    expect(runtime).toMatch(/^FROM node:24-slim AS runtime$/m);
    expect(runtime).toMatch(/npm ci --omit=dev/);
    expect(runtime).toMatch(/NODE_ENV=production/);
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^EXPOSE 8080$/m);
  });

  it('checks /health on the port it exposes, with node', () => {
    const healthcheck = /^HEALTHCHECK [^\n]*\\\n\s*CMD (.*)$/m.exec(runtime)?.[1] ?? '';
    expect(healthcheck).toContain('"node"');
    expect(healthcheck).toContain('/health');
    expect(healthcheck).toContain(`process.env.PORT || ${exposed}`);
  });

  it('starts the bundle it built, with the files the bundle reads beside it', () => {
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(runtime)?.[1] ?? '[]') as string[];
    expect(cmd).toEqual(['node', 'build/server.mjs']);
    expect(runtime).toContain('COPY --from=build /app/build/server.mjs ./build/server.mjs');
    for (const [, source] of runtime.matchAll(/^COPY (?!--from)(\S+) /gm)) {
      if (source === 'package.json') continue;
      expect(fs.existsSync(path.join(ROOT_DIR, source!)), `${source} exists`).toBe(true);
    }
    // The server finds its migrations under ROOT_DIR/server/db/migrations, ROOT_DIR being the bundle's build folder's parent.
    expect(runtime).toContain('COPY server/db/migrations ./server/db/migrations');
    expect(runtime).toMatch(/^WORKDIR \/app$/m);
    expect(dockerfile.slice(0, dockerfile.lastIndexOf('\nFROM '))).toMatch(/^WORKDIR \/app$/m);
  });

  it('copies beside the bundle every file the bundle reads by its own path', () => {
    // The global setup's bundle is built as the image's is (scripts/server-bundle.mjs): a source file
    // that reads a file next to it keeps its own URL there. A new one needs its files copied here.
    const bundle = fs.readFileSync(process.env.LIGHTBAR_SERVER_BUNDLE!, 'utf8');
    const readers = new Set([...bundle.matchAll(/"(file:\/\/[^"]+)"/g)].map((match) => path.relative(ROOT_DIR, fileURLToPath(match[1]!))));
    const files: Record<string, string[]> = {
      // ROOT_DIR: package.json (the version) and the migrations (server/db/connection.ts).
      'server/config.ts': ['package.json', 'server/db/migrations'],
      'server/db/pglite-thread-client.ts': ['server/db/pglite-thread.mjs'],
      'server/wzdx/schema.ts': ['server/wzdx/schemas'],
    };
    expect([...readers].sort()).toEqual(Object.keys(files));
    for (const needed of Object.values(files).flat()) expect(runtime, needed).toMatch(new RegExp(`^COPY (\\S+ )?${needed} `, 'm'));
  });

  it('.dockerignore keeps what the build copies', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .filter((line) => line && !line.startsWith('#'));
    for (const needed of ['package.json', 'package-lock.json', 'server', 'src', 'scripts', 'index.html', 'vite.config.ts']) {
      expect(ignored, needed).not.toContain(needed);
    }
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', 'dist', '.env']));
  });
});
