// ort_batch.js: runs many ONNX models with ONNX Runtime (onnxruntime-node) in one process, for the
// differential test (tests/difftest). One thread, graph optimizations off.
//
// Usage: node ort_batch.js CASES.txt NODE_MODULES_DIR
//   CASES.txt lists one case directory per line. Each holds model.onnx and feeds.txt, whose lines
//   are "NAME TYPE DIMS FILE": TYPE an ONNX element type name (float, double, float16, int8 ..
//   uint64, bool), DIMS comma-separated (or "-" for a scalar), FILE the raw little-endian data
//   (bools one byte each, float16 as bits) relative to the case directory.
// Writes into each case directory status.txt ("ok", "not_implemented MESSAGE" when ONNX Runtime
// has no kernel for an op or type, "error MESSAGE" otherwise) and, for each output NAME,
// ort_NAME.txt ("TYPE DIMS") and ort_NAME.bin (raw data as above).
'use strict';

const fs = require('fs');
const path = require('path');

const kOrtTypes = {
  float: ['float32', Float32Array], double: ['float64', Float64Array],
  float16: ['float16', Uint16Array], int8: ['int8', Int8Array], int16: ['int16', Int16Array],
  int32: ['int32', Int32Array], int64: ['int64', BigInt64Array], uint8: ['uint8', Uint8Array],
  uint16: ['uint16', Uint16Array], uint32: ['uint32', Uint32Array],
  uint64: ['uint64', BigUint64Array], bool: ['bool', Uint8Array],
};
const kOnnxNames = Object.fromEntries(Object.entries(kOrtTypes).map(([k, v]) => [v[0], k]));

function readFeeds(ort, dir) {
  const feeds = {};
  const text = fs.readFileSync(path.join(dir, 'feeds.txt'), 'utf8');
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const [name, type, dims, file] = line.split(' ');
    const [ortType, ArrayType] = kOrtTypes[type];
    const bytes = fs.readFileSync(path.join(dir, file));
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const shape = dims === '-' ? [] : dims.split(',').map(Number);
    feeds[name] = new ort.Tensor(ortType, new ArrayType(buffer), shape);
  }
  return feeds;
}

function writeOutput(dir, name, tensor) {
  const type = kOnnxNames[tensor.type];
  const dims = tensor.dims.length === 0 ? '-' : tensor.dims.join(',');
  fs.writeFileSync(path.join(dir, `ort_${name}.txt`), `${type} ${dims}\n`);
  const data = tensor.data;
  fs.writeFileSync(path.join(dir, `ort_${name}.bin`),
                   Buffer.from(data.buffer, data.byteOffset, data.byteLength));
}

async function runCase(ort, dir) {
  fs.writeFileSync(path.join(dir, 'started'), '');  // tells a crash from a runner that never ran
  let session;
  try {
    session = await ort.InferenceSession.create(path.join(dir, 'model.onnx'), {
      graphOptimizationLevel: 'disabled', intraOpNumThreads: 1, interOpNumThreads: 1,
    });
  } catch (e) {
    const message = e.message.split('\n')[0];
    const missing = /NOT_IMPLEMENTED|Could not find an implementation|Unsupported data type/.test(e.message);
    return `${missing ? 'not_implemented' : 'error'} ${message}`;
  }
  try {
    const results = await session.run(readFeeds(ort, dir));
    for (const name of session.outputNames) writeOutput(dir, name, results[name]);
    return 'ok';
  } catch (e) {
    const message = e.message.split('\n')[0];
    // The Node.js binding has no bfloat16: such a model cannot be fed or read back.
    return `${/Unsupported data type/.test(message) ? 'not_implemented' : 'error'} ${message}`;
  }
}

async function main(argv) {
  const [casesFile, nodeModules] = argv;
  const ort = require(path.join(nodeModules, 'onnxruntime-node'));
  const dirs = fs.readFileSync(casesFile, 'utf8').split('\n').filter((d) => d.trim() !== '');
  for (const dir of dirs) {
    fs.writeFileSync(path.join(dir, 'status.txt'), `${await runCase(ort, dir)}\n`);
  }
}

main(process.argv.slice(2)).then(
    () => {}, (e) => {
      console.error(`ort_batch: ${e.stack}`);
      process.exitCode = 2;
    });
