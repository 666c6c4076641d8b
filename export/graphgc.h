// The umbrella header: everything in graphgc's public API.
#ifndef GRAPHGC_GRAPHGC_H_
#define GRAPHGC_GRAPHGC_H_

#include "graphgc/export/fold/fold.h"          // IWYU pragma: export
#include "graphgc/export/onnx/functions.h"     // IWYU pragma: export
#include "graphgc/export/onnx/inline_model.h"  // IWYU pragma: export
#include "graphgc/export/onnx/model_files.h"   // IWYU pragma: export
#include "graphgc/export/onnx/tensor_files.h"  // IWYU pragma: export
#include "graphgc/export/onnx/to_onnx.h"       // IWYU pragma: export
#include "graphgc/ir/attribute.h"              // IWYU pragma: export
#include "graphgc/ir/graph.h"                  // IWYU pragma: export
#include "graphgc/ir/graph_options.h"          // IWYU pragma: export
#include "graphgc/ir/graph_stats.h"            // IWYU pragma: export
#include "graphgc/ir/limits.h"                 // IWYU pragma: export
#include "graphgc/ir/var.h"                    // IWYU pragma: export
#include "graphgc/opset/build/custom_op.h"     // IWYU pragma: export
#include "graphgc/opset/build/node.h"          // IWYU pragma: export
#include "graphgc/opset/build/opaque_node.h"   // IWYU pragma: export
#include "graphgc/opset/build/ops.h"           // IWYU pragma: export
#include "graphgc/opset/generated/ml_ops.h"    // IWYU pragma: export
#include "graphgc/opset/generated/onnx_ops.h"  // IWYU pragma: export
#include "graphgc/valuestore/data_type.h"      // IWYU pragma: export
#include "graphgc/valuestore/tensor.h"         // IWYU pragma: export
#include "graphgc/valuestore/value.h"          // IWYU pragma: export

#endif  // GRAPHGC_GRAPHGC_H_
