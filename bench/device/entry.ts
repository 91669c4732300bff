/**
 * The map bench's entry on a machine with a GPU and no node_modules (bundled by pack.sh with
 * esbuild; Playwright travels beside it). Rows and options come from the BENCH_* variables of
 * bench/map.ts; results go to BENCH_RESULTS_DIR.
 */
import os from 'node:os';
import { runMapBench } from '../map';

const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, device machine`;
await runMapBench(process.env.BENCH_RESULTS_DIR ?? '.', machine);
