// The umbrella header: everything in graphgc's public API.
#ifndef GRAPHGC_GRAPHGC_H_
#define GRAPHGC_GRAPHGC_H_

#include "graphgc/attribute.h"    // IWYU pragma: export
#include "graphgc/custom_op.h"    // IWYU pragma: export
#include "graphgc/data_type.h"    // IWYU pragma: export
#include "graphgc/graph.h"        // IWYU pragma: export
#include "graphgc/graph_options.h"  // IWYU pragma: export
#include "graphgc/graph_stats.h"  // IWYU pragma: export
#include "graphgc/inline_model.h"  // IWYU pragma: export
#include "graphgc/ml_ops.h"       // IWYU pragma: export
#include "graphgc/node.h"         // IWYU pragma: export
#include "graphgc/onnx_ops.h"     // IWYU pragma: export
#include "graphgc/ops.h"          // IWYU pragma: export
#include "graphgc/tensor.h"       // IWYU pragma: export
#include "graphgc/to_onnx.h"      // IWYU pragma: export
#include "graphgc/var.h"          // IWYU pragma: export

#endif  // GRAPHGC_GRAPHGC_H_
