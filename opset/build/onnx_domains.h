// The domains whose ops ONNX itself defines: ai.onnx (also spelled ""), ai.onnx.ml and
// ai.onnx.preview.training. Their schemas come from ONNX's registry, their values from the
// built-in kernels, and no custom op may be registered in them. Constants only; no state.
// Internal to the opset and export modules.
#ifndef GRAPHGC_OPSET_BUILD_ONNX_DOMAINS_H_
#define GRAPHGC_OPSET_BUILD_ONNX_DOMAINS_H_

#include "absl/strings/string_view.h"

namespace graphgc::internal {

inline constexpr char kMlDomainName[] = "ai.onnx.ml";
inline constexpr char kPreviewTrainingDomain[] = "ai.onnx.preview.training";
// The only opset of the preview training domain (ONNX 1.7 on; IR version 7).
inline constexpr int kNewestPreviewTrainingOpset = 1;

inline bool IsOnnxDefinedDomain(absl::string_view domain) {
  return domain.empty() || domain == "ai.onnx" || domain == kMlDomainName ||
         domain == kPreviewTrainingDomain;
}

}  // namespace graphgc::internal

#endif  // GRAPHGC_OPSET_BUILD_ONNX_DOMAINS_H_
