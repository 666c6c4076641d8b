// FindSchema: ONNX's OpSchemaRegistry::Schema without its per-call cost. The registry lookup
// builds two std::strings, hashes them twice and walks a version map on every call — a tenth of
// building a Conv, and it runs again for each node exported. Found schemas are remembered per
// thread (no lock; a few hundred entries at most: one per op, version and domain asked for);
// misses are not remembered, so a schema registered later is still found. Internal to the opset
// module and above; the returned schema lives as long as the process.
#ifndef GRAPHGC_OPSET_INFERENCE_SCHEMA_LOOKUP_H_
#define GRAPHGC_OPSET_INFERENCE_SCHEMA_LOOKUP_H_

#include "absl/strings/string_view.h"
#include "onnx/defs/schema.h"

namespace graphgc::internal {

// The schema of `op_type` in `domain` ("" for ai.onnx) at opset `version`, or nullptr.
const onnx::OpSchema* FindSchema(absl::string_view op_type, int version, absl::string_view domain);

}  // namespace graphgc::internal

#endif  // GRAPHGC_OPSET_INFERENCE_SCHEMA_LOOKUP_H_
