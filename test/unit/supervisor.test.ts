/**
 * How many workers `npm start` runs: the number asked for, or one per CPU, within the database's free sessions.
 */
import { expect } from 'chai';
import { combineWorkerMetrics } from '../../handlers/capture/metrics.js';
import { planWorkers, WORKER_HEAP_MB, workerExecArgv } from '../../handlers/server/supervisor.js';

describe('unit: planWorkers', () => {
  const cases: Array<{ name: string; requested: number | undefined; cpus: number; max: number; reserved: number; used: number; count: number }> = [
    { name: 'one per CPU when the database has room', requested: undefined, cpus: 4, max: 100, reserved: 3, used: 1, count: 4 },
    { name: 'the number asked for when the database has room', requested: 3, cpus: 2, max: 100, reserved: 3, used: 1, count: 3 },
    { name: 'no more than the free sessions allow (50 - 3 - 10 = 37, 16 each)', requested: undefined, cpus: 8, max: 50, reserved: 3, used: 10, count: 2 },
    { name: 'no more than the free sessions allow, even when asked', requested: 6, cpus: 2, max: 100, reserved: 3, used: 50, count: 2 },
    { name: 'exactly enough sessions', requested: 2, cpus: 2, max: 35, reserved: 3, used: 0, count: 2 },
    { name: 'one session short', requested: 2, cpus: 2, max: 34, reserved: 3, used: 0, count: 1 },
    { name: 'at least one, even on a full database', requested: undefined, cpus: 2, max: 20, reserved: 3, used: 30, count: 1 },
  ];
  for (const { name, requested, cpus, max, reserved, used, count } of cases) {
    it(name, () => {
      const plan = planWorkers({ requested, cpus, budget: { max, reserved, used }, perWorker: 16 });
      expect(plan.count).to.equal(count);
      expect(plan.reason).to.include(`max_connections ${max} - reserved ${reserved} - in use ${used}`);
    });
  }
});

describe('unit: workerExecArgv', () => {
  const limit = `--max-old-space-size=${WORKER_HEAP_MB}`;
  const cases: Array<[string, string[], string | undefined, string[]]> = [
    ['adds the heap limit to the primary\'s arguments', ['--enable-source-maps', '--max-semi-space-size=8'], undefined, ['--enable-source-maps', '--max-semi-space-size=8', limit]],
    ['adds it with no arguments and an empty NODE_OPTIONS', [], '', [limit]],
    ['keeps an operator\'s limit among node\'s arguments', ['--max-old-space-size=1024'], undefined, ['--max-old-space-size=1024']],
    ['keeps it spelled with underscores', ['--max_old_space_size=1024'], undefined, ['--max_old_space_size=1024']],
    ['keeps an operator\'s limit in NODE_OPTIONS (adds none that would override it)', ['--enable-source-maps'], '--trace-warnings  --max-old-space-size=2048', ['--enable-source-maps']],
    ['is not fooled by a similar flag', ['--max-semi-space-size=8'], '--max-old-space-sizes', ['--max-semi-space-size=8', limit]],
  ];
  for (const [name, execArgv, nodeOptions, expected] of cases) {
    it(name, () => expect(workerExecArgv(execArgv, nodeOptions)).to.deep.equal(expected));
  }
});

describe('unit: combineWorkerMetrics', () => {
  const worker = (requests: number, memory: number, listening: number) =>
    [
      '# HELP hedgerow_capture_requests_total Capture requests answered, by operation and status.',
      '# TYPE hedgerow_capture_requests_total counter',
      `hedgerow_capture_requests_total{operation="capture_create",status="200"} ${requests}`,
      '# HELP process_resident_memory_bytes Resident memory size in bytes.',
      '# TYPE process_resident_memory_bytes gauge',
      `process_resident_memory_bytes ${memory}`,
      '# HELP hedgerow_api_access_cache_listening 1 while listening.',
      '# TYPE hedgerow_api_access_cache_listening gauge',
      `hedgerow_api_access_cache_listening{pool="main"} ${listening}`,
      '',
    ].join('\n');

  it('adds counters up and keeps gauges per worker, each family described once', () => {
    expect(combineWorkerMetrics([{ id: 1, text: worker(3, 100, 1) }, { id: 3, text: worker(4, 200, 0) }])).to.equal(
      [
        '# HELP hedgerow_capture_requests_total Capture requests answered, by operation and status.',
        '# TYPE hedgerow_capture_requests_total counter',
        'hedgerow_capture_requests_total{operation="capture_create",status="200"} 7',
        '# HELP process_resident_memory_bytes Resident memory size in bytes.',
        '# TYPE process_resident_memory_bytes gauge',
        'process_resident_memory_bytes{worker="1"} 100',
        'process_resident_memory_bytes{worker="3"} 200',
        '# HELP hedgerow_api_access_cache_listening 1 while listening.',
        '# TYPE hedgerow_api_access_cache_listening gauge',
        'hedgerow_api_access_cache_listening{worker="1",pool="main"} 1',
        'hedgerow_api_access_cache_listening{worker="3",pool="main"} 0',
        '',
      ].join('\n'),
    );
  });

  it('keeps a series only one worker has', () => {
    const second = worker(1, 1, 1).replace('status="200"', 'status="400"');
    expect(combineWorkerMetrics([{ id: 1, text: worker(2, 1, 1) }, { id: 2, text: second }])).to.include(
      'hedgerow_capture_requests_total{operation="capture_create",status="200"} 2\nhedgerow_capture_requests_total{operation="capture_create",status="400"} 1\n',
    );
  });
});
