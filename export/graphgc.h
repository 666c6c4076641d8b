// The umbrella header: everything in graphgc's public API.
#ifndef GRAPHGC_GRAPHGC_H_
#define GRAPHGC_GRAPHGC_H_

#include "graphgc/export/fold.h"           // IWYU pragma: export
#include "graphgc/export/inline_model.h"   // IWYU pragma: export
#include "graphgc/export/model_files.h"    // IWYU pragma: export
#include "graphgc/export/tensor_files.h"   // IWYU pragma: export
#include "graphgc/export/to_onnx.h"        // IWYU pragma: export
#include "graphgc/ir/attribute.h"          // IWYU pragma: export
#include "graphgc/ir/graph.h"              // IWYU pragma: export
#include "graphgc/ir/graph_options.h"      // IWYU pragma: export
#include "graphgc/ir/graph_stats.h"        // IWYU pragma: export
#include "graphgc/ir/limits.h"             // IWYU pragma: export
#include "graphgc/ir/var.h"                // IWYU pragma: export
#include "graphgc/opset/custom_op.h"       // IWYU pragma: export
#include "graphgc/opset/ml_ops.h"          // IWYU pragma: export
#include "graphgc/opset/node.h"            // IWYU pragma: export
#include "graphgc/opset/onnx_ops.h"        // IWYU pragma: export
#include "graphgc/opset/opaque_node.h"     // IWYU pragma: export
#include "graphgc/opset/ops.h"             // IWYU pragma: export
#include "graphgc/valuestore/data_type.h"  // IWYU pragma: export
#include "graphgc/valuestore/tensor.h"     // IWYU pragma: export
#include "graphgc/valuestore/value.h"      // IWYU pragma: export

#endif  // GRAPHGC_GRAPHGC_H_
