// The process-wide registry behind register_op. Internal to the opset module.
#ifndef GRAPHGC_CUSTOM_OP_REGISTRY_H_
#define GRAPHGC_CUSTOM_OP_REGISTRY_H_

#include <memory>

#include "absl/strings/string_view.h"
#include "graphgc/opset/build/custom_op.h"

namespace graphgc::internal {

// The newest registered version of `domain`, 0 if none.
int CustomDomainVersion(absl::string_view domain);

// The op registered for (domain, op_type) with the greatest version <= `version`, or nullptr.
std::shared_ptr<const CustomOp> FindCustomOp(absl::string_view domain, absl::string_view op_type,
                                             int version);

}  // namespace graphgc::internal

#endif  // GRAPHGC_CUSTOM_OP_REGISTRY_H_
