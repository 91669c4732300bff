// The embedded database in a thread of its own (server/db/pglite-thread-client.ts starts it):
// PGlite's engine and the parsing of its answers run here, so a long statement (a flush of
// thousands of asset states, a page of 5,000 assets) never holds the server's event loop.
// Plain JavaScript: a worker thread has no TypeScript loader under every runner (tsx, Vitest).
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const port = parentPort;
if (!port) throw new Error('pglite-thread.mjs runs as a worker thread');

/** The parsers the caller named: Drizzle's keep date and time values as the text Postgres sends. */
const identity = (value) => value;
/** One parser object for each list of type ids (Drizzle names the same few on every statement). */
const parsersByTypes = new Map();
function rawParsers(types) {
  if (!types) return undefined;
  const key = types.join(',');
  let parsers = parsersByTypes.get(key);
  if (!parsers) parsersByTypes.set(key, (parsers = Object.fromEntries(types.map((type) => [type, identity]))));
  return parsers;
}

/** An error as plain data: its message and its own primitive fields (SQLSTATE code, constraint, detail…). */
function errorData(error) {
  const data = { name: 'Error', message: String(error) };
  if (error && typeof error === 'object') {
    for (const [key, value] of Object.entries(error)) {
      if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) data[key] = value;
    }
    data.name = error.name ?? 'Error';
    data.message = error.message ?? data.message;
  }
  return data;
}

/** Open transactions by id: the transaction's client and how to end it. */
const transactions = new Map();

let db;
try {
  // A template (a data directory PGlite dumped as a tar file) is loaded instead of creating the
  // cluster anew: the test suites start each file's database from one migrated dump.
  db = workerData.template
    ? new PGlite({ dataDir: workerData.dataDir ?? undefined, loadDataDir: new Blob([fs.readFileSync(workerData.template)]) })
    : new PGlite(workerData.dataDir ?? undefined);
  await db.waitReady;
  port.postMessage({ ready: true });
} catch (error) {
  port.postMessage({ ready: false, error: errorData(error) });
  process.exit(1);
}

const reply = (id, result) => port.postMessage({ id, ok: true, result });
const fail = (id, error) => port.postMessage({ id, ok: false, error: errorData(error) });

function begin(id) {
  let end;
  const ended = new Promise((resolve, reject) => (end = { resolve, reject }));
  let endId = null;
  db.transaction(async (tx) => {
    transactions.set(id, { tx, end: (nextId, commit) => ((endId = nextId), commit ? end.resolve() : end.reject(ROLLBACK)) });
    reply(id, { tx: id });
    await ended;
  }).then(
    () => {
      transactions.delete(id);
      reply(endId, null);
    },
    (error) => {
      const started = transactions.delete(id);
      if (!started) fail(id, error);
      else if (error === ROLLBACK) reply(endId, null);
      else fail(endId, error);
    },
  );
}
const ROLLBACK = new Error('rolled back by the caller');

port.on('message', (message) => {
  const { id, op } = message;
  if (op === 'query') {
    const client = message.tx === undefined ? db : transactions.get(message.tx)?.tx;
    if (!client) return fail(id, new Error('the transaction has ended'));
    client.query(message.sql, message.params, { rowMode: message.rowMode, parsers: rawParsers(message.rawTypes) }).then(
      (result) => reply(id, { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows }),
      (error) => fail(id, error),
    );
  } else if (op === 'begin') {
    begin(id);
  } else if (op === 'end') {
    const open = transactions.get(message.tx);
    if (!open) return fail(id, new Error('the transaction has ended'));
    open.end(id, message.commit);
  } else if (op === 'close') {
    db.close().then(
      () => reply(id, null),
      (error) => fail(id, error),
    );
  }
});
