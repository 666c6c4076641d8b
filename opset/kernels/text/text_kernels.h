// The text family: each concept's registrations, all called from register.cc.
#ifndef GRAPHGC_OPSET_KERNELS_TEXT_TEXT_KERNELS_H_
#define GRAPHGC_OPSET_KERNELS_TEXT_TEXT_KERNELS_H_

#include "graphgc/opset/kernels/kernel_table.h"

namespace graphgc::kernels {

void RegisterStringNormalizerKernels(KernelTable& table);  // string_normalizer.cc
void RegisterTfIdfVectorizerKernels(KernelTable& table);   // tfidf_vectorizer.cc
void RegisterStringConcatKernels(KernelTable& table);      // string_concat.cc
void RegisterStringSplitKernels(KernelTable& table);       // string_split.cc
void RegisterRegexFullMatchKernels(KernelTable& table);    // regex_full_match.cc

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_TEXT_TEXT_KERNELS_H_
