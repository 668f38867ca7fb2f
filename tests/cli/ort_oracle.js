// ort_oracle.js - run ONNX models with ONNX Runtime (onnxruntime-node, CPU)
// and write what it really computes: every fetched value's element type and
// dims, and the data of those with at most 64 elements.
//
// usage: node ort_oracle.js ORT_PACKAGE_DIR JOBS.json RESULTS.json
// JOBS.json: [{"id": ..., "model": path, "inputs": [{"name", "type", "dims"}],
//             "fetch": [names]}]
// RESULTS.json: {id: {"error": text} or {"values": {name: {"type", "dims",
//               "data"?} or {"error": text}}}}
// Inputs are made here from their type and dims: floats 0.1 to 0.9 in a fixed
// pattern, integers 0 (a safe index), a scalar integer 2 (a trip count, a
// size), booleans true, strings "monday". Values are fetched in groups so
// that a large model does not hold every intermediate at once; a group that
// fails is fetched one value at a time, so a value ORT cannot return (a
// sequence) is reported alone.
'use strict';
const fs = require('fs');
const path = require('path');

const [pkg, jobsPath, outPath] = process.argv.slice(2);
const ort = require(path.resolve(pkg));
const jobs = JSON.parse(fs.readFileSync(jobsPath, 'utf8'));
const GROUP = 150;

function makeInput(inp) {
  const n = inp.dims.reduce((a, b) => a * b, 1);
  const scalar = inp.dims.length === 0;
  let data;
  switch (inp.type) {
    case 'float32': data = Float32Array.from({ length: n }, (_, i) => 0.1 + ((i * 7) % 9) / 10); break;
    case 'float64': data = Float64Array.from({ length: n }, (_, i) => 0.1 + ((i * 7) % 9) / 10); break;
    case 'int64': data = BigInt64Array.from({ length: n }, () => (scalar ? 2n : 0n)); break;
    case 'uint64': data = BigUint64Array.from({ length: n }, () => (scalar ? 2n : 0n)); break;
    case 'int32': data = Int32Array.from({ length: n }, () => (scalar ? 2 : 0)); break;
    case 'uint32': data = Uint32Array.from({ length: n }, () => (scalar ? 2 : 0)); break;
    case 'int16': data = Int16Array.from({ length: n }, () => (scalar ? 2 : 0)); break;
    case 'uint16': data = Uint16Array.from({ length: n }, () => (scalar ? 2 : 0)); break;
    case 'int8': data = Int8Array.from({ length: n }, () => (scalar ? 2 : 0)); break;
    case 'uint8': data = Uint8Array.from({ length: n }, () => (scalar ? 2 : 0)); break;
    case 'bool': data = Uint8Array.from({ length: n }, () => 1); break;
    case 'string': data = Array.from({ length: n }, () => 'monday'); break;
    case 'float16': data = Uint16Array.from({ length: n }, () => 0x3800); break; // 0.5
    default: throw new Error('input ' + inp.name + ': element type ' + inp.type + ' is not made here');
  }
  return new ort.Tensor(inp.type, data, inp.dims);
}

function describe(t) {
  const out = { type: t.type, dims: Array.from(t.dims) };
  if (t.size <= 64 && t.type !== 'string') {
    out.data = Array.from(t.data, (v) => (typeof v === 'bigint' ? v.toString() : v));
  } else if (t.size <= 64) {
    out.data = Array.from(t.data);
  }
  return out;
}

async function fetchGroup(session, feeds, names, values) {
  try {
    const r = await session.run(feeds, names);
    for (const k of names) values[k] = describe(r[k]);
  } catch (e) {
    if (names.length === 1) {
      values[names[0]] = { error: String(e.message || e).split('\n')[0] };
      return;
    }
    for (const k of names) await fetchGroup(session, feeds, [k], values);
  }
}

(async () => {
  const results = {};
  for (const job of jobs) {
    try {
      const session = await ort.InferenceSession.create(job.model, {
        executionProviders: ['cpu'],
        graphOptimizationLevel: 'disabled',
        intraOpNumThreads: 1,
        interOpNumThreads: 1,
      });
      const feeds = {};
      for (const inp of job.inputs) feeds[inp.name] = makeInput(inp);
      // one run of the model's own outputs first: a model ORT cannot run fails here
      await session.run(feeds, session.outputNames.slice(0, 1));
      const values = {};
      const want = job.fetch.filter((k) => session.outputNames.includes(k));
      for (let i = 0; i < want.length; i += GROUP) {
        await fetchGroup(session, feeds, want.slice(i, i + GROUP), values);
      }
      results[job.id] = { values };
      if (session.release) await session.release();
    } catch (e) {
      results[job.id] = { error: String(e.message || e).split('\n')[0] };
    }
  }
  fs.writeFileSync(outPath, JSON.stringify(results));
})();
