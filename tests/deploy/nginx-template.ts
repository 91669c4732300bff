/**
 * deploy/nginx.conf is a template: `${LIGHTBAR_...}` placeholders that the nginx image's start step
 * fills in compose.yaml (envsubst, filtered to names starting with LIGHTBAR_) and that the
 * process-topology test fills itself. nginx's own `$variables` have no braces and stay as they are.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ROOT_DIR } from '../../server/config';

export const NGINX_TEMPLATE = path.join(ROOT_DIR, 'deploy', 'nginx.conf');

const PLACEHOLDER = /\$\{(LIGHTBAR_[A-Z0-9_]+)\}/g;

/** The placeholders the template uses, each once. */
export function templatePlaceholders(template = fs.readFileSync(NGINX_TEMPLATE, 'utf8')): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((match) => match[1]!))];
}

/** The template with every placeholder filled; a placeholder without a value is an error, as a typo must not reach nginx. */
export function fillNginxTemplate(values: Record<string, string>, template = fs.readFileSync(NGINX_TEMPLATE, 'utf8')): string {
  return template.replace(PLACEHOLDER, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`deploy/nginx.conf: no value for \${${name}}`);
    return value;
  });
}
