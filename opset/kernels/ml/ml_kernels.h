// The ml family (the ai.onnx.ml domain): each concept's registrations, all called from register.cc.
//
// ONNX Runtime is the oracle for these operators (ONNX 1.12 ships no test data for them), so the
// kernels follow its conventions where the specification is vague: the post transforms, the
// binary classifiers' score layouts and the order of operations in float.
#ifndef GRAPHGC_OPSET_KERNELS_ML_ML_KERNELS_H_
#define GRAPHGC_OPSET_KERNELS_ML_ML_KERNELS_H_

#include "graphgc/opset/kernels/kernel_table.h"

namespace graphgc::kernels {

inline constexpr char kMlDomain[] = "ai.onnx.ml";

void RegisterFeatureTransformKernels(KernelTable& table);        // feature_transforms.cc
void RegisterNormalizerKernels(KernelTable& table);              // normalizer.cc
void RegisterFeatureSelectionKernels(KernelTable& table);        // feature_selection.cc
void RegisterCategoryKernels(KernelTable& table);                // category_maps.cc
void RegisterOneHotEncoderKernels(KernelTable& table);           // one_hot_encoder.cc
void RegisterLinearModelKernels(KernelTable& table);             // linear_models.cc
void RegisterTreeEnsembleRegressorKernels(KernelTable& table);   // tree_ensemble_regressor.cc
void RegisterTreeEnsembleClassifierKernels(KernelTable& table);  // tree_ensemble_classifier.cc
void RegisterTreeEnsembleKernels(KernelTable& table);            // tree_ensemble_5.cc
void RegisterSvmRegressorKernels(KernelTable& table);            // svm_regressor.cc
void RegisterSvmClassifierKernels(KernelTable& table);           // svm_classifier.cc

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_ML_ML_KERNELS_H_
