// ort_run.js: runs an ONNX model with ONNX Runtime (onnxruntime-node) and compares its outputs with
// expected tensors. Used by ort_crosscheck_test to check graphgc's propagated values.
//
// Usage: node ort_run.js MODEL.onnx EXPECTED.json [NODE_MODULES_DIR]
//   NODE_MODULES_DIR holds onnxruntime-node; default: tools/.ort/node_modules (tools/bootstrap
//   installs it there).
//
// EXPECTED.json: {"inputs": [TENSOR...], "outputs": [TENSOR...]}, where TENSOR is
//   {"name": "y", "type": "float", "shape": [2, 3], "values": [...]}.
//   "type" is ONNX's element type name (float, double, float16, int8 .. uint64, bool). Values are
//   numbers, flattened in row-major order; 64-bit integers may be decimal strings (exact), floating
//   point values may be "NaN", "Infinity" or "-Infinity", bools true/false or 1/0, float16 values
//   their value as a number. "inputs" are the feeds; without it, the model runs with no feeds.
//
// Prints one line per expected output, "ok NAME TYPE DIMS" or "MISMATCH NAME: why", then a summary.
// Compares element types and dims exactly, integers and bools exactly, floating point values with a
// relative tolerance (1e-5 for float and double, 1e-2 for float16); NaN matches only NaN.
// Exit status: 0 when every output matches, 1 on a mismatch, 2 when the model cannot be run
// (onnxruntime-node missing, a bad model or a bad EXPECTED.json).
'use strict';

const fs = require('fs');
const path = require('path');

const kMaxReportedElements = 5;

// ONNX element type name -> ONNX Runtime's tensor type name.
const kOrtTypes = {
  float: 'float32',
  double: 'float64',
  float16: 'float16',
  int8: 'int8',
  int16: 'int16',
  int32: 'int32',
  int64: 'int64',
  uint8: 'uint8',
  uint16: 'uint16',
  uint32: 'uint32',
  uint64: 'uint64',
  bool: 'bool',
};

const kRelativeTolerance = {float: 1e-5, double: 1e-5, float16: 1e-2};

class SetupError extends Error {}

function loadOrt(nodeModules) {
  const dir = path.join(nodeModules, 'onnxruntime-node');
  try {
    return require(dir);
  } catch (e) {
    const why = e.message.split('\n')[0];
    throw new SetupError(`cannot load onnxruntime-node from ${dir} (${why}); ` +
                         'run tools/bootstrap to install it');
  }
}

function readExpected(file) {
  let expected;
  try {
    expected = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new SetupError(`cannot read ${file}: ${e.message}`);
  }
  if (!Array.isArray(expected.outputs)) throw new SetupError(`${file}: no "outputs" array`);
  for (const t of [...expected.outputs, ...(expected.inputs || [])]) {
    if (!(t.type in kOrtTypes)) throw new SetupError(`${file}: ${t.name}: unknown type ${t.type}`);
  }
  return expected;
}

// float16 <-> float, round to nearest even (Node 20 has no Float16Array).
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

function floatToHalfBits(value) {
  f32[0] = value;
  const x = u32[0];
  const sign = (x >>> 16) & 0x8000;
  const exponent = ((x >>> 23) & 0xff) - 127 + 15;
  let mantissa = x & 0x7fffff;
  if (((x >>> 23) & 0xff) === 0xff) return sign | 0x7c00 | (mantissa ? 0x200 : 0);
  if (exponent >= 0x1f) return sign | 0x7c00;
  if (exponent <= 0) {
    if (exponent < -10) return sign;
    mantissa |= 0x800000;
    const shift = 14 - exponent;
    return sign | roundShifted(mantissa, shift);
  }
  return sign | ((exponent << 10) + roundShifted(mantissa, 13));
}

// mantissa >> shift, rounded to nearest even.
function roundShifted(mantissa, shift) {
  let result = Math.floor(mantissa / 2 ** shift);
  const remainder = mantissa - result * 2 ** shift;
  const half = 2 ** (shift - 1);
  if (remainder > half || (remainder === half && (result & 1))) result += 1;
  return result;
}

function halfBitsToFloat(bits) {
  const sign = (bits & 0x8000) ? -1 : 1;
  const exponent = (bits >>> 10) & 0x1f;
  const mantissa = bits & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 0x1f) return mantissa ? NaN : sign * Infinity;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

// A JSON bool: true/false or a number.
function isTrue(v) {
  return v === true || (v !== false && Number(v) !== 0);
}

function makeFeed(ort, t) {
  const values = t.values;
  let data;
  switch (t.type) {
    case 'float': data = Float32Array.from(values, Number); break;
    case 'double': data = Float64Array.from(values, Number); break;
    case 'float16': data = Uint16Array.from(values, (v) => floatToHalfBits(Number(v))); break;
    case 'int8': data = Int8Array.from(values, Number); break;
    case 'int16': data = Int16Array.from(values, Number); break;
    case 'int32': data = Int32Array.from(values, Number); break;
    case 'int64': data = BigInt64Array.from(values, (v) => BigInt(v)); break;
    case 'uint8': data = Uint8Array.from(values, Number); break;
    case 'uint16': data = Uint16Array.from(values, Number); break;
    case 'uint32': data = Uint32Array.from(values, Number); break;
    case 'uint64': data = BigUint64Array.from(values, (v) => BigInt(v)); break;
    case 'bool': data = Uint8Array.from(values, (v) => (isTrue(v) ? 1 : 0)); break;
  }
  return new ort.Tensor(kOrtTypes[t.type], data, t.shape);
}

function sameDims(a, b) {
  return a.length === b.length && a.every((d, i) => Number(d) === Number(b[i]));
}

// Why element `actual` (float16 decoded) differs from `expected` (as JSON gave it), or null.
function elementMismatch(type, actual, expected) {
  if (type === 'bool') {
    const e = isTrue(expected);
    return Boolean(Number(actual)) === e ? null : `ort=${Boolean(Number(actual))} expected=${e}`;
  }
  if (type in kRelativeTolerance) {
    const a = Number(actual);
    const e = Number(expected);
    if (Number.isNaN(a) && Number.isNaN(e)) return null;
    if (a === e) return null;
    const tolerance = kRelativeTolerance[type] * Math.max(Math.abs(a), Math.abs(e));
    return Math.abs(a - e) <= tolerance ? null : `ort=${a} expected=${e}`;
  }
  const a = BigInt(actual);
  const e = BigInt(expected);
  return a === e ? null : `ort=${a} expected=${e}`;
}

// Why ORT's tensor differs from the expected one, or null.
function tensorMismatch(ortTensor, expected) {
  const ortType = kOrtTypes[expected.type];
  if (ortTensor.type !== ortType) return `type ort=${ortTensor.type} expected=${ortType}`;
  if (!sameDims(ortTensor.dims, expected.shape)) {
    return `dims ort=${JSON.stringify(ortTensor.dims)} expected=${JSON.stringify(expected.shape)}`;
  }
  const data = ortTensor.data;
  if (data.length !== expected.values.length) {
    return `element count ort=${data.length} expected=${expected.values.length}`;
  }
  // float16 data are bit patterns where the runtime has no Float16Array.
  const decode = expected.type === 'float16' && data instanceof Uint16Array ? halfBitsToFloat :
                                                                                 (x) => x;
  const bad = [];
  for (let i = 0; i < data.length; ++i) {
    const why = elementMismatch(expected.type, decode(data[i]), expected.values[i]);
    if (why !== null) bad.push(`[${i}] ${why}`);
  }
  if (bad.length === 0) return null;
  const shown = bad.slice(0, kMaxReportedElements).join(', ');
  return `${bad.length} of ${data.length} values differ: ${shown}`;
}

async function runModel(ort, modelPath, expected) {
  let session;
  try {
    session = await ort.InferenceSession.create(modelPath, {graphOptimizationLevel: 'disabled'});
  } catch (e) {
    throw new SetupError(`ONNX Runtime cannot load ${modelPath}: ${e.message}`);
  }
  const feeds = {};
  for (const t of expected.inputs || []) feeds[t.name] = makeFeed(ort, t);
  try {
    return {outputNames: session.outputNames, results: await session.run(feeds)};
  } catch (e) {
    throw new SetupError(`ONNX Runtime cannot run ${modelPath}: ${e.message}`);
  }
}

// Prints a line per output; returns the number of mismatches.
function compareOutputs(outputNames, results, expected) {
  let mismatches = 0;
  const expectedNames = new Set(expected.outputs.map((t) => t.name));
  for (const name of outputNames) {
    if (!expectedNames.has(name)) {
      console.log(`MISMATCH ${name}: the model has this output, the expectations do not`);
      ++mismatches;
    }
  }
  for (const t of expected.outputs) {
    const ortTensor = results[t.name];
    const why = ortTensor === undefined ? 'the model has no such output' :
                                          tensorMismatch(ortTensor, t);
    if (why === null) {
      console.log(`ok ${t.name} ${t.type} ${JSON.stringify(t.shape)}`);
    } else {
      console.log(`MISMATCH ${t.name}: ${why}`);
      ++mismatches;
    }
  }
  return mismatches;
}

async function main(argv) {
  if (argv.length < 2 || argv.length > 3) {
    throw new SetupError('usage: node ort_run.js MODEL.onnx EXPECTED.json [NODE_MODULES_DIR]');
  }
  const [modelPath, expectedPath] = argv;
  const nodeModules = argv[2] || path.join(__dirname, '..', 'tools', '.ort', 'node_modules');
  const ort = loadOrt(nodeModules);
  const expected = readExpected(expectedPath);
  const {outputNames, results} = await runModel(ort, modelPath, expected);
  const mismatches = compareOutputs(outputNames, results, expected);
  console.log(`ort_run: ${expected.outputs.length} outputs checked, ${mismatches} mismatched`);
  return mismatches === 0 ? 0 : 1;
}

main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      console.log(`ort_run: ${e instanceof SetupError ? e.message : e.stack}`);
      process.exitCode = 2;
    });
