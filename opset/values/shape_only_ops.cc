#include "graphgc/opset/values/shape_only_ops.h"

namespace graphgc::internal {

bool ReadsShapesOnly(absl::string_view op_type) { return op_type == "Shape" || op_type == "Size"; }

}  // namespace graphgc::internal
