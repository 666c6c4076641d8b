#include "graphgc/opset/kernels/common/registration.h"

#include <vector>

#include "graphgc/valuestore/check.h"

namespace graphgc::kernels {

void AddVersioned(KernelTable& table, absl::string_view domain, absl::string_view op_type,
                  const KernelTypes& computes, absl::Span<const Admitted> admitted, int last,
                  const Kernel& kernel) {
  GRAPHGC_CHECK(!computes.constraints().empty() && !admitted.empty(),
                "AddVersioned: no constraint or no version range");
  for (size_t i = 0; i < admitted.size(); ++i) {
    const int first = admitted[i].since;
    const int range_last = i + 1 < admitted.size() ? admitted[i + 1].since - 1 : last;
    std::vector<TypeConstraint> constraints = computes.constraints();
    constraints.front().types = constraints.front().types & admitted[i].types;
    GRAPHGC_CHECK(!constraints.front().types.empty(),
                  "AddVersioned: a version range where the kernel computes no admitted type");
    table.add(domain, op_type, first, range_last, KernelTypes(std::move(constraints)), kernel);
  }
}

}  // namespace graphgc::kernels
