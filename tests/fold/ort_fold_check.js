// ort_fold_check.js: checks a folded ONNX model against its original with ONNX Runtime
// (onnxruntime-node), for tests/fold/fold_vs_ort.sh.
//
// Usage: node ort_fold_check.js ORIGINAL.onnx FOLDED.onnx [--inputs DIR] [--basic-out PATH]
//                               [--skip-basic] [--single-run] [--node-modules DIR]
//   Runs both models (graph optimizations off, one thread) on the same inputs: with --inputs, the
//   TensorProto files DIR/input_N.pb (ONNX's backend test data); else random ones from a fixed
//   seed: symbolic dims are kSymbolicDimSize; floats uniform in [-1, 1); integers in
//   [0, kIntInputLimit), so indices, counts and repeats stay in range; bools either. The original
//   runs twice (unless --single-run) so a model with random ops is told apart from a wrong fold.
//   Each output is compared: element type and dims exactly, integers, bools and strings exactly,
//   floating point within kAbsoluteTolerance + kRelativeTolerance * |original| (NaN only with
//   NaN). The original's session is released before the folded one is made, so only one model is
//   in memory at a time.
//   Then (unless --skip-basic) a fresh node process creates a session on ORIGINAL with ONNX
//   Runtime's basic graph optimizations, writing the optimized model to PATH (default: a
//   temporary file, removed), and reports its peak RSS; the nodes of that model are counted.
//   NODE_MODULES DIR holds onnxruntime-node (default: $GRAPHGC_ORT_NODE_MODULES, else the
//   repository's tools/.ort/node_modules, where tools/bootstrap installs it).
//
// Prints one JSON object: {outputs_agree, max_abs_diff, nodes_original, nodes_folded,
// nodes_ort_basic, ort_basic_peak_rss_bytes, ort_baseline_rss_bytes, mismatches, skipped, error,
// basic_error}. Nodes are those of the main graph (not of subgraphs). A failure of the basic
// session only sets basic_error (and leaves nodes_ort_basic null); it does not change the status.
// Exit status: 0 the outputs agree; 1 they do not, or the folded model does not load or run;
// 2 bad usage or onnxruntime-node missing; 3 the original cannot run on the inputs, or has random
// outputs (a random op, or outputs that change from run to run): nothing to compare.
'use strict';

const childProcess = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const kSymbolicDimSize = 3;
const kIntInputLimit = 3;
const kAbsoluteTolerance = 1e-4;
const kRelativeTolerance = 1e-4;
const kSeed = 20240611;
const kMaxReportedMismatches = 5;

class UsageError extends Error {}
class CannotRunOriginal extends Error {}

// ---- Minimal protobuf reading: only the fields of ModelProto and GraphProto needed here. ----

// Reads a varint at `pos`; returns [value as BigInt, next position].
function readVarint(buffer, pos) {
  let value = 0n;
  let shift = 0n;
  for (;;) {
    if (pos >= buffer.length) throw new Error('truncated varint');
    const byte = buffer[pos++];
    value |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return [value, pos];
    shift += 7n;
    if (shift > 63n) throw new Error('varint longer than 10 bytes');
  }
}

// The fields of the message in buffer[start, end): [{field, wire, value}], where value is a
// BigInt for varints and fixed-size fields, and {start, end} for length-delimited ones.
function readFields(buffer, start, end) {
  const fields = [];
  let pos = start;
  while (pos < end) {
    let key;
    [key, pos] = readVarint(buffer, pos);
    const field = Number(key >> 3n);
    const wire = Number(key & 7n);
    let value;
    if (wire === 0) {
      [value, pos] = readVarint(buffer, pos);
    } else if (wire === 1 || wire === 5) {
      const size = wire === 1 ? 8 : 4;
      if (pos + size > end) throw new Error('truncated fixed-size field');
      value = wire === 1 ? buffer.readBigUInt64LE(pos) : BigInt(buffer.readUInt32LE(pos));
      pos += size;
    } else if (wire === 2) {
      let length;
      [length, pos] = readVarint(buffer, pos);
      if (BigInt(pos) + length > BigInt(end)) throw new Error('truncated length-delimited field');
      value = {start: pos, end: pos + Number(length)};
      pos = value.end;
    } else {
      throw new Error(`unsupported wire type ${wire} of field ${field}`);
    }
    fields.push({field, wire, value});
  }
  if (pos !== end) throw new Error('message overruns its end');
  return fields;
}

function submessages(buffer, fields, number) {
  return fields.filter((f) => f.field === number && f.wire === 2).map((f) => f.value);
}

function readString(buffer, range) {
  return buffer.toString('utf8', range.start, range.end);
}

// ONNX element type numbers (TensorProto.DataType) -> [name, ORT type, typed array].
const kElementTypes = {
  1: ['float', 'float32', Float32Array], 2: ['uint8', 'uint8', Uint8Array],
  3: ['int8', 'int8', Int8Array], 4: ['uint16', 'uint16', Uint16Array],
  5: ['int16', 'int16', Int16Array], 6: ['int32', 'int32', Int32Array],
  7: ['int64', 'int64', BigInt64Array], 9: ['bool', 'bool', Uint8Array],
  10: ['float16', 'float16', Uint16Array], 11: ['double', 'float64', Float64Array],
  12: ['uint32', 'uint32', Uint32Array], 13: ['uint64', 'uint64', BigUint64Array],
  8: ['string', 'string', Array],
};

// A graph input: {name, elemType (number or null), dims ([number|null] or null), why}; `why`
// says why no random tensor can be made for it.
function readInput(buffer, range) {
  const fields = readFields(buffer, range.start, range.end);
  const input = {name: '', elemType: null, dims: null, why: null};
  for (const r of submessages(buffer, fields, 1)) input.name = readString(buffer, r);
  const types = submessages(buffer, fields, 2);
  if (types.length === 0) return {...input, why: 'no type'};
  const typeFields = readFields(buffer, types[0].start, types[0].end);
  const tensorTypes = submessages(buffer, typeFields, 1);
  if (tensorTypes.length === 0) return {...input, why: 'not a tensor'};
  const tensorFields = readFields(buffer, tensorTypes[0].start, tensorTypes[0].end);
  for (const f of tensorFields) if (f.field === 1 && f.wire === 0) input.elemType = Number(f.value);
  const shapes = submessages(buffer, tensorFields, 2);
  if (shapes.length === 0) return {...input, why: 'no shape'};
  input.dims = submessages(buffer, readFields(buffer, shapes[0].start, shapes[0].end), 1)
                   .map((r) => {
                     const dim = readFields(buffer, r.start, r.end).find((f) => f.field === 1 &&
                                                                             f.wire === 0);
                     return dim === undefined ? null : Number(BigInt.asIntN(64, dim.value));
                   });
  if (!(input.elemType in kElementTypes)) input.why = `element type ${input.elemType}`;
  return input;
}

// Ops whose outputs are random (Dropout only with a training_mode input, see readModel): their
// models are not compared.
const kRandomOps = new Set([
  'RandomNormal', 'RandomNormalLike', 'RandomUniform', 'RandomUniformLike', 'Multinomial',
  'Bernoulli',
]);

// {nodes, inputs (not backed by initializers), initializers, randomOps} of the model's main graph.
function readModel(file) {
  let buffer;
  try {
    buffer = fs.readFileSync(file);
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${e.message}`);
  }
  try {
    const graphs = submessages(buffer, readFields(buffer, 0, buffer.length), 7);
    const summary = {nodes: 0, inputs: [], initializers: new Set(), randomOps: new Set()};
    const declared = [];
    for (const graph of graphs) {
      const fields = readFields(buffer, graph.start, graph.end);
      const nodes = submessages(buffer, fields, 1);
      summary.nodes += nodes.length;
      for (const node of nodes) {
        const nodeFields = readFields(buffer, node.start, node.end);
        const opType = submessages(buffer, nodeFields, 4).map((r) => readString(buffer, r)).pop();
        const inputs = submessages(buffer, nodeFields, 1).length;
        if (kRandomOps.has(opType) || (opType === 'Dropout' && inputs >= 3)) {
          summary.randomOps.add(opType);
        }
      }
      for (const tensor of submessages(buffer, fields, 5)) {
        for (const name of submessages(buffer, readFields(buffer, tensor.start, tensor.end), 8)) {
          summary.initializers.add(readString(buffer, name));
        }
      }
      for (const input of submessages(buffer, fields, 11)) declared.push(readInput(buffer, input));
    }
    summary.inputs = declared.filter((input) => !summary.initializers.has(input.name));
    return summary;
  } catch (e) {
    throw new UsageError(`${file} is not an ONNX model: ${e.message}`);
  }
}

// ---- Inputs ----

// mulberry32: a small fixed-seed generator, the same on every run.
function makeRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Bits of a float16 for k / 1024, |k| <= 1024, which float16 holds exactly.
function halfBitsOfSixteenth(k) {
  if (k === 0) return 0;
  const sign = k < 0 ? 0x8000 : 0;
  let magnitude = Math.abs(k);
  let exponent = -10;  // value = magnitude * 2^exponent
  while (magnitude >= 2048) {
    magnitude /= 2;
    exponent += 1;
  }
  while (magnitude < 1024) {
    magnitude *= 2;
    exponent -= 1;
  }
  return sign | ((exponent + 10 + 15) << 10) | (magnitude - 1024);
}

function randomTensor(ort, input, random) {
  const [, ortType, ArrayType] = kElementTypes[input.elemType];
  if (ortType === 'string') {
    throw new CannotRunOriginal(`input ${input.name}: no random strings (give --inputs)`);
  }
  const dims = input.dims.map((d) => (d === null || d < 0 ? kSymbolicDimSize : d));
  const count = dims.reduce((a, b) => a * b, 1);
  const data = new ArrayType(count);
  for (let i = 0; i < count; ++i) {
    const u = random();
    if (ortType === 'float32' || ortType === 'float64') {
      data[i] = 2 * u - 1;
    } else if (ortType === 'float16') {
      data[i] = halfBitsOfSixteenth(Math.floor(u * 2048) - 1024);
    } else if (ortType === 'bool') {
      data[i] = u < 0.5 ? 0 : 1;
    } else {
      const value = Math.floor(u * kIntInputLimit);
      data[i] = ArrayType === BigInt64Array || ArrayType === BigUint64Array ? BigInt(value) : value;
    }
  }
  return new ort.Tensor(ortType, data, dims);
}

function makeFeeds(ort, inputs) {
  const random = makeRandom(kSeed);
  const feeds = {};
  for (const input of inputs) {
    if (input.why !== null) {
      throw new CannotRunOriginal(`input ${input.name}: no random tensor for it (${input.why})`);
    }
    feeds[input.name] = randomTensor(ort, input, random);
  }
  return feeds;
}

// The tensor of an ONNX TensorProto file (as the backend test data stores its inputs), for ORT.
function readTensorFile(ort, file) {
  const buffer = fs.readFileSync(file);
  const fields = readFields(buffer, 0, buffer.length);
  const dims = [];
  let elemType = 0;
  let name = '';
  let raw = null;
  const values = [];  // from the typed fields: BigInts (varints, fixed64) or Numbers
  for (const f of fields) {
    if (f.field === 1) {
      if (f.wire === 0) dims.push(Number(BigInt.asIntN(64, f.value)));
      else for (let p = f.value.start; p < f.value.end;) {
        let dim;
        [dim, p] = readVarint(buffer, p);
        dims.push(Number(BigInt.asIntN(64, dim)));
      }
    } else if (f.field === 2 && f.wire === 0) {
      elemType = Number(f.value);
    } else if (f.field === 8 && f.wire === 2) {
      name = readString(buffer, f.value);
    } else if (f.field === 9 && f.wire === 2) {
      raw = Buffer.from(buffer.subarray(f.value.start, f.value.end));
    } else if (f.field === 14 && f.wire === 0 && f.value === 1n) {
      throw new CannotRunOriginal(`${file}: external data`);
    } else if ([4, 5, 7, 10, 11].includes(f.field)) {
      values.push(...typedFieldValues(buffer, f));
    } else if (f.field === 6 && f.wire === 2) {
      values.push(readString(buffer, f.value));
    }
  }
  if (!(elemType in kElementTypes)) {
    throw new CannotRunOriginal(`${file}: not a tensor of a supported type (${elemType})`);
  }
  const [, ortType, ArrayType] = kElementTypes[elemType];
  const count = dims.reduce((a, b) => a * b, 1);
  const width = ortType === 'string' ? 0 : ArrayType.BYTES_PER_ELEMENT;
  if (raw !== null && raw.length !== count * width) {
    throw new CannotRunOriginal(`${file}: ${raw.length} bytes of data for [${dims}]`);
  }
  let data;
  if (raw !== null && ortType !== 'string') {
    const bytes = new Uint8Array(raw);  // copied: aligned for the typed array
    data = new ArrayType(bytes.buffer, 0, count);
  } else if (ArrayType === BigInt64Array || ArrayType === BigUint64Array) {
    data = ArrayType.from(values, (v) => ArrayType === BigInt64Array ? BigInt.asIntN(64, BigInt(v)) :
                                                                          BigInt.asUintN(64, BigInt(v)));
  } else {
    data = ortType === 'string' ? values : ArrayType.from(values, (v) => Number(v));
  }
  if (data.length !== count) throw new CannotRunOriginal(`${file}: ${data.length} values for [${dims}]`);
  return {name, elemType, tensor: new ort.Tensor(ortType, data, dims)};
}

// Values of a repeated numeric TensorProto field, packed or not: float_data (4) and double_data
// (10) as Numbers, int32_data (5) as Numbers, int64_data (7) and uint64_data (11) as BigInts.
function typedFieldValues(buffer, f) {
  const decode = (wire, value) => {
    if (f.field === 4) return new Float32Array(new Uint32Array([Number(value)]).buffer)[0];
    if (f.field === 10) return new Float64Array(new BigUint64Array([value]).buffer)[0];
    if (f.field === 5) return Number(BigInt.asIntN(32, value));
    return value;
  };
  if (f.wire !== 2) return [decode(f.wire, f.value)];
  const out = [];
  for (let p = f.value.start; p < f.value.end;) {
    if (f.field === 4) {
      out.push(buffer.readFloatLE(p));
      p += 4;
    } else if (f.field === 10) {
      out.push(buffer.readDoubleLE(p));
      p += 8;
    } else {
      let value;
      [value, p] = readVarint(buffer, p);
      out.push(decode(0, value));
    }
  }
  return out;
}

// Feeds from DIR/input_0.pb, input_1.pb ...: by the name each holds, else in the order of the
// model's inputs. Each must be a tensor of the input's element type.
function readFeeds(ort, dir, inputs) {
  const number = (file) => Number(file.match(/\d+/)[0]);
  const files = fs.readdirSync(dir).filter((f) => /^input_\d+\.pb$/.test(f))
                    .sort((a, b) => number(a) - number(b));
  const feeds = {};
  files.forEach((file, i) => {
    const positional = inputs[i];
    if (positional !== undefined && positional.why === 'not a tensor') {
      throw new CannotRunOriginal(`input ${positional.name} is not a tensor`);
    }
    const {name, elemType, tensor} = readTensorFile(ort, path.join(dir, file));
    const input = inputs.find((x) => x.name === name) || positional;
    if (input === undefined) throw new CannotRunOriginal(`${file}: no model input for it`);
    if (input.elemType !== elemType) {
      throw new CannotRunOriginal(`${file}: element type ${elemType}, input ${input.name} ` +
                                  `is ${input.elemType}`);
    }
    feeds[input.name] = tensor;
  });
  return feeds;
}

// ---- Running and comparing ----

const kSessionOptions = {
  graphOptimizationLevel: 'disabled', intraOpNumThreads: 1, interOpNumThreads: 1,
  logSeverityLevel: 3,
};

function firstLine(error) {
  return String(error && error.message ? error.message : error).split('\n')[0];
}

// Outputs by name; the session is released before returning.
async function runModel(ort, file, feeds) {
  const session = await ort.InferenceSession.create(file, kSessionOptions);
  try {
    const wanted = {};
    for (const name of session.inputNames) {
      if (!(name in feeds)) throw new Error(`the session wants input ${name}, not in the model`);
      wanted[name] = feeds[name];
    }
    const results = await session.run(wanted);
    const outputs = {};
    for (const name of session.outputNames) outputs[name] = results[name];
    return outputs;
  } finally {
    await session.release();
  }
}

function halfToFloat(bits) {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 31) return fraction ? NaN : sign * Infinity;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

function isFloating(type) {
  return type === 'float32' || type === 'float64' || type === 'float16';
}

// {agree, maxAbsDiff, why}: compares one output of the folded model with the original's; why
// names the first element that differs, maxAbsDiff is over all floating point elements.
function compareTensors(original, folded, exact) {
  if (original.type !== folded.type) {
    return {agree: false, maxAbsDiff: 0, why: `type ${folded.type}, original ${original.type}`};
  }
  if (original.dims.join(',') !== folded.dims.join(',')) {
    return {agree: false, maxAbsDiff: 0, why: `dims [${folded.dims}], original [${original.dims}]`};
  }
  const floating = isFloating(original.type) && !exact;
  const value = (data, i) => (original.type === 'float16' ? halfToFloat(data[i]) : data[i]);
  let maxAbsDiff = 0;
  let why = null;
  for (let i = 0; i < original.data.length; ++i) {
    const x = value(original.data, i);
    const y = value(folded.data, i);
    if (x === y || (Number.isNaN(x) && Number.isNaN(y))) continue;  // also equal infinities
    let close = false;
    if (floating) {
      const diff = Math.abs(x - y);
      close = diff <= kAbsoluteTolerance + kRelativeTolerance * Math.abs(x);  // false for NaN
      if (Number.isFinite(diff)) maxAbsDiff = Math.max(maxAbsDiff, diff);
    }
    if (!close && why === null) why = `element ${i} is ${y}, original ${x}`;
  }
  return {agree: why === null, maxAbsDiff, why};
}

// {agree, maxAbsDiff, mismatches}: every output of the original, by name, in the folded model.
function compareOutputs(original, folded, exact) {
  const mismatches = [];
  let maxAbsDiff = 0;
  for (const name of Object.keys(original)) {
    if (!(name in folded)) {
      mismatches.push(`${name}: missing from the folded model`);
      continue;
    }
    const result = compareTensors(original[name], folded[name], exact);
    if (!result.agree) mismatches.push(`${name}: ${result.why}`);
    maxAbsDiff = Math.max(maxAbsDiff, result.maxAbsDiff);
  }
  for (const name of Object.keys(folded)) {
    if (!(name in original)) mismatches.push(`${name}: an output the original does not have`);
  }
  return {agree: mismatches.length === 0, maxAbsDiff, mismatches};
}

// ---- ONNX Runtime's basic optimizations, in a fresh process ----

// The child: creates the session, which writes the optimized model, and prints its peak RSS.
async function basicChild([original, optimizedPath, nodeModules]) {
  const ort = loadOrt(nodeModules);
  const baseline = process.memoryUsage().rss;
  const session = await ort.InferenceSession.create(original, {
    graphOptimizationLevel: 'basic', optimizedModelFilePath: optimizedPath, intraOpNumThreads: 1,
    interOpNumThreads: 1, logSeverityLevel: 3,
  });
  await session.release();
  // maxRSS is in kilobytes.
  console.log(JSON.stringify({
    peak_rss_bytes: process.resourceUsage().maxRSS * 1024, baseline_rss_bytes: baseline,
  }));
}

// {nodes, peakRssBytes, baselineRssBytes} or {error}.
function runBasic(original, optimizedPath, nodeModules) {
  const child = childProcess.spawnSync(
      process.execPath, [__filename, '--basic-child', original, optimizedPath, nodeModules],
      {encoding: 'utf8', maxBuffer: 1 << 20});
  if (child.status !== 0) {
    return {error: `basic session: ${(child.stderr || '').trim().split('\n').pop() ||
                                      `exit ${child.status} ${child.signal || ''}`}`};
  }
  try {
    const report = JSON.parse(child.stdout.trim().split('\n').pop());
    return {
      nodes: readModel(optimizedPath).nodes, peakRssBytes: report.peak_rss_bytes,
      baselineRssBytes: report.baseline_rss_bytes,
    };
  } catch (e) {
    return {error: `basic session: ${firstLine(e)}`};
  }
}

// ---- Main ----

function defaultNodeModules() {
  return process.env.GRAPHGC_ORT_NODE_MODULES ||
         path.join(__dirname, '..', '..', 'tools', '.ort', 'node_modules');
}

function loadOrt(nodeModules) {
  const dir = path.join(nodeModules, 'onnxruntime-node');
  try {
    return require(dir);
  } catch (e) {
    throw new UsageError(`cannot load onnxruntime-node from ${dir} (${firstLine(e)}); ` +
                         'run tools/bootstrap to install it');
  }
}

function parseArguments(argv) {
  const options = {
    files: [], basicOut: null, inputs: null, skipBasic: false, singleRun: false,
    nodeModules: defaultNodeModules(),
  };
  for (let i = 0; i < argv.length; ++i) {
    const arg = argv[i];
    const valued = {'--basic-out': 'basicOut', '--node-modules': 'nodeModules', '--inputs': 'inputs'};
    if (arg in valued) {
      if (i + 1 >= argv.length) throw new UsageError(`${arg} needs a value`);
      options[valued[arg]] = argv[++i];
    } else if (arg === '--skip-basic') {
      options.skipBasic = true;
    } else if (arg === '--single-run') {
      options.singleRun = true;
    } else if (arg.startsWith('--')) {
      throw new UsageError(`unknown option ${arg}`);
    } else {
      options.files.push(arg);
    }
  }
  if (options.files.length !== 2) {
    throw new UsageError('usage: node ort_fold_check.js ORIGINAL.onnx FOLDED.onnx ' +
                         '[--inputs DIR] [--basic-out PATH] [--skip-basic] [--single-run] ' +
                         '[--node-modules DIR]');
  }
  return options;
}

// The original's outputs; throws CannotRunOriginal when ORT cannot run it or it is not
// deterministic.
async function runOriginal(ort, file, feeds, singleRun) {
  let first;
  try {
    first = await runModel(ort, file, feeds);
  } catch (e) {
    throw new CannotRunOriginal(`ONNX Runtime cannot run the original: ${firstLine(e)}`);
  }
  if (!singleRun) {
    const second = await runModel(ort, file, feeds);
    const same = compareOutputs(first, second, true);
    if (!same.agree) {
      throw new CannotRunOriginal(`the original's outputs change between runs (${same.mismatches[0]})`);
    }
  }
  return first;
}

async function check(options) {
  const [originalFile, foldedFile] = options.files;
  const ort = loadOrt(options.nodeModules);
  const original = readModel(originalFile);
  const report = {
    outputs_agree: null, max_abs_diff: null, nodes_original: original.nodes, nodes_folded: null,
    nodes_ort_basic: null, ort_basic_peak_rss_bytes: null, ort_baseline_rss_bytes: null,
    mismatches: [], skipped: null, error: null, basic_error: null,
  };
  let foldedUnreadable = null;
  try {
    report.nodes_folded = readModel(foldedFile).nodes;
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    foldedUnreadable = e.message;
  }
  try {
    if (original.randomOps.size > 0) {
      throw new CannotRunOriginal(`random outputs (${[...original.randomOps].join(', ')})`);
    }
    const feeds = options.inputs === null ? makeFeeds(ort, original.inputs) :
                                            readFeeds(ort, options.inputs, original.inputs);
    const expected = await runOriginal(ort, originalFile, feeds, options.singleRun);
    let actual;
    try {
      if (foldedUnreadable !== null) throw new Error(foldedUnreadable);
      actual = await runModel(ort, foldedFile, feeds);
    } catch (e) {
      report.error = `ONNX Runtime cannot run the folded model: ${firstLine(e)}`;
    }
    if (actual !== undefined) {
      const comparison = compareOutputs(expected, actual, false);
      report.outputs_agree = comparison.agree;
      report.max_abs_diff = comparison.maxAbsDiff;
      report.mismatches = comparison.mismatches.slice(0, kMaxReportedMismatches);
    } else {
      report.outputs_agree = false;
    }
  } catch (e) {
    if (!(e instanceof CannotRunOriginal)) throw e;
    report.skipped = e.message;
  }
  if (!options.skipBasic && report.skipped === null) addBasic(report, originalFile, options);
  return report;
}

function addBasic(report, originalFile, options) {
  const temporary = options.basicOut === null;
  const optimizedPath = temporary ?
      path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ort_fold_check-')), 'basic.onnx') :
      options.basicOut;
  try {
    const basic = runBasic(originalFile, optimizedPath, options.nodeModules);
    if (basic.error !== undefined) {
      report.basic_error = basic.error;
      return;
    }
    report.nodes_ort_basic = basic.nodes;
    report.ort_basic_peak_rss_bytes = basic.peakRssBytes;
    report.ort_baseline_rss_bytes = basic.baselineRssBytes;
  } finally {
    if (temporary) fs.rmSync(path.dirname(optimizedPath), {recursive: true, force: true});
  }
}

function exitStatus(report) {
  if (report.skipped !== null) return 3;
  return report.outputs_agree === true && report.error === null ? 0 : 1;
}

async function main(argv) {
  if (argv[0] === '--basic-child') return basicChild(argv.slice(1));
  const report = await check(parseArguments(argv));
  console.log(JSON.stringify(report));
  process.exitCode = exitStatus(report);
}

main(process.argv.slice(2)).catch((e) => {
  console.error(`ort_fold_check: ${e instanceof UsageError ? e.message : e.stack}`);
  process.exitCode = 2;
});
