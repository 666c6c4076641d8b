// NonMaxSuppression (opsets 10 and 11, the same semantics): per batch and class, the boxes taken
// greedily by descending score, each one kept unless its IOU with a box already kept exceeds
// iou_threshold; the output lists (batch, class, box) rows in the order they were kept.
//
// ONNX leaves two things to the runtime, and this kernel follows ONNX Runtime (1.30) on both:
//   - the order of equal scores: the lower box index first (checked against ORT; older ORT
//     versions popped ties from a binary heap in its own order);
//   - the IOU arithmetic, in float, with boxes of zero area or no overlap never suppressing.
// A NaN score among the candidates gets no value: its place in the order is not defined.
// A negative max_output_boxes_per_class counts as 0, as in ORT; an iou_threshold outside [0, 1]
// makes the op fail (ORT refuses it).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/detection/detection_kernels.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

// One box as the corners of its x and y extents, whatever the input format.
struct Extent {
  float x_min, x_max, y_min, y_max;
};

// Both corner orders are allowed ("any diagonal pair of box corners").
void Order(float a, float b, float& low, float& high) {
  low = a >= b ? b : a;
  high = a >= b ? a : b;
}

Extent ExtentOf(const float* box, bool center_point) {
  Extent e{};
  if (center_point) {  // [x_center, y_center, width, height]
    const float half_width = box[2] / 2;
    const float half_height = box[3] / 2;
    e = {box[0] - half_width, box[0] + half_width, box[1] - half_height, box[1] + half_height};
  } else {  // [y1, x1, y2, x2]
    Order(box[1], box[3], e.x_min, e.x_max);
    Order(box[0], box[2], e.y_min, e.y_max);
  }
  return e;
}

// Whether `b` overlaps the kept box `a` by more than the threshold (ORT's float arithmetic).
bool Suppresses(const Extent& a, const Extent& b, float iou_threshold) {
  const float x_min = std::max(a.x_min, b.x_min);
  const float x_max = std::min(a.x_max, b.x_max);
  if (x_max <= x_min) return false;
  const float y_min = std::max(a.y_min, b.y_min);
  const float y_max = std::min(a.y_max, b.y_max);
  if (y_max <= y_min) return false;
  const float intersection = (x_max - x_min) * (y_max - y_min);
  if (intersection <= 0.0f) return false;
  const float area_a = (a.x_max - a.x_min) * (a.y_max - a.y_min);
  const float area_b = (b.x_max - b.x_min) * (b.y_max - b.y_min);
  const float union_area = area_a + area_b - intersection;
  if (area_a <= 0.0f || area_b <= 0.0f || union_area <= 0.0f) return false;
  return intersection / union_area > iou_threshold;
}

struct Candidate {
  float score;
  int64_t box;
};

struct Thresholds {
  int64_t max_per_class = 0;
  float iou = 0.0f;
  bool has_score = false;
  float score = 0.0f;
};

// The optional scalar inputs; nullopt-like Decline for a non-scalar one (ONNX says "a scalar").
absl::StatusOr<Thresholds> ReadThresholds(const KernelContext& ctx) {
  Thresholds t;
  for (int i = 2; i <= 4; ++i) {
    const Tensor* input = ctx.optional_input(i);
    if (input != nullptr && input->size() != 1) {
      return Decline(absl::StrCat(ctx.input_label(i), " is not a single value"));
    }
  }
  if (const Tensor* max = ctx.optional_input(2)) {
    t.max_per_class = std::max<int64_t>(max->data<int64_t>()[0], 0);
  }
  if (const Tensor* iou = ctx.optional_input(3)) {
    t.iou = iou->data<float>()[0];
    if (!(t.iou >= 0.0f && t.iou <= 1.0f)) {
      return ctx.input_error(3, absl::StrCat("iou_threshold is ", t.iou, "; it must be in [0, 1]"));
    }
  }
  if (const Tensor* score = ctx.optional_input(4)) {
    t.has_score = true;
    t.score = score->data<float>()[0];
  }
  return t;
}

absl::Status CheckShapes(const KernelContext& ctx, const Tensor& boxes, const Tensor& scores) {
  if (boxes.rank() != 3 || boxes.shape()[2] != 4) {
    return ctx.input_error(0, absl::StrCat("shape ", ShapeToString(boxes.shape()),
                                           " is not [num_batches, spatial_dimension, 4]"));
  }
  if (scores.rank() != 3 || scores.shape()[0] != boxes.shape()[0] ||
      scores.shape()[2] != boxes.shape()[1]) {
    return ctx.input_error(1, absl::StrCat("shape ", ShapeToString(scores.shape()),
                                           " does not match boxes ", ShapeToString(boxes.shape())));
  }
  return absl::OkStatus();
}

KernelResult NonMaxSuppression(const KernelContext& ctx) {
  const Tensor& boxes = ctx.input(0);
  const Tensor& scores = ctx.input(1);
  GRAPHGC_RETURN_IF_ERROR(CheckShapes(ctx, boxes, scores));
  const int64_t center_point_box = ctx.int_attribute("center_point_box");
  if (center_point_box != 0 && center_point_box != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("attribute 'center_point_box' is ", center_point_box, "; it must be 0 or 1"));
  }
  GRAPHGC_ASSIGN_OR_RETURN(const Thresholds t, ReadThresholds(ctx));
  const int64_t batches = boxes.shape()[0];
  const int64_t classes = scores.shape()[1];
  const int64_t count = boxes.shape()[1];
  // The extents and candidates of one batch's boxes (8 floats' worth each), and the rows kept
  // so far, sized against the budget.
  if (!ctx.within_budget(DataType::kFloat, 8 * count)) {
    return absl::ResourceExhaustedError("NonMaxSuppression's box extents exceed the value budget");
  }
  std::vector<Extent> extents(static_cast<size_t>(count));
  std::vector<Candidate> candidates;
  std::vector<int64_t> rows;
  std::vector<int64_t> kept;
  const float* box_data = boxes.data<float>().data();
  const float* score_data = scores.data<float>().data();
  for (int64_t b = 0; b < batches && t.max_per_class > 0; ++b) {
    for (int64_t i = 0; i < count; ++i) {
      extents[static_cast<size_t>(i)] = ExtentOf(box_data + (b * count + i) * 4, center_point_box);
    }
    for (int64_t c = 0; c < classes; ++c) {
      const float* class_scores = score_data + (b * classes + c) * count;
      candidates.clear();
      for (int64_t i = 0; i < count; ++i) {
        const float score = class_scores[i];
        if (t.has_score && !(score > t.score)) continue;
        if (std::isnan(score)) return Decline("a NaN score among the candidates");
        candidates.push_back({score, i});
      }
      // Descending score; stable, so equal scores keep ascending box order.
      std::stable_sort(candidates.begin(), candidates.end(),
                       [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
      kept.clear();
      for (const Candidate& candidate : candidates) {
        if (static_cast<int64_t>(kept.size()) >= t.max_per_class) break;
        const int64_t box = candidate.box;
        const Extent& e = extents[static_cast<size_t>(box)];
        const bool suppressed = std::any_of(kept.begin(), kept.end(), [&](int64_t k) {
          return Suppresses(extents[static_cast<size_t>(k)], e, t.iou);
        });
        if (suppressed) continue;
        if (!ctx.within_budget(DataType::kInt64, static_cast<int64_t>(rows.size()) + 3)) {
          return absl::ResourceExhaustedError(
              "NonMaxSuppression's output exceeds the value budget");
        }
        kept.push_back(box);
        rows.insert(rows.end(), {b, c, box});
      }
    }
  }
  const int64_t selected = static_cast<int64_t>(rows.size()) / 3;
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(DataType::kInt64, {selected, 3}));
  std::copy(rows.begin(), rows.end(), out.mutable_data<int64_t>().begin());
  return KernelOutputs{std::move(out).freeze()};
}

}  // namespace

void RegisterNonMaxSuppressionKernels(KernelTable& table) {
  // float boxes and scores, int64 indices: the schema has no type parameter.
  table.add("", "NonMaxSuppression", 10, KernelTable::kLatest, KernelTypes::Unconstrained(),
            NonMaxSuppression);
}

}  // namespace graphgc::kernels
