// ort_time.js: times one ONNX model in ONNX Runtime (onnxruntime-node), for graphgc-bench
// --kernels. Usage: node ort_time.js MODEL.onnx FEEDS.txt REPETITIONS NODE_MODULES_DIR
// FEEDS.txt lines: "NAME float DIMS FILE" (raw little-endian float32 data; DIMS comma-separated).
// One thread, graph optimizations off. Prints the minimum ns of session.run over the repetitions
// (after one warm-up run).
'use strict';

const fs = require('fs');
const path = require('path');

async function main([model, feedsFile, repetitions, nodeModules]) {
  const ort = require(path.join(nodeModules, 'onnxruntime-node'));
  const session = await ort.InferenceSession.create(model, {
    graphOptimizationLevel: 'disabled', intraOpNumThreads: 1, interOpNumThreads: 1,
  });
  const feeds = {};
  for (const line of fs.readFileSync(feedsFile, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const [name, type, dims, file] = line.split(' ');
    const bytes = fs.readFileSync(path.join(path.dirname(feedsFile), file));
    const data = type === 'int64' ?
        new BigInt64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8) :
        new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    feeds[name] = new ort.Tensor(type === 'int64' ? 'int64' : 'float32', data.slice(),
                                 dims.split(',').map(Number));
  }
  await session.run(feeds);
  let best = Infinity;
  for (let i = 0; i < Number(repetitions); ++i) {
    const start = process.hrtime.bigint();
    await session.run(feeds);
    best = Math.min(best, Number(process.hrtime.bigint() - start));
  }
  console.log(best);
}

main(process.argv.slice(2)).catch((e) => {
  console.error(`ort_time: ${e.message}`);
  process.exitCode = 2;
});
