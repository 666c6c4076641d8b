// Every family of builtin kernels, and the one function that registers them all.
//
// Each family lives in its own folder under opset/kernels/ and registers its kernels explicitly
// (no static self-registration: static libraries drop objects nothing references).
#ifndef GRAPHGC_OPSET_KERNELS_BUILTIN_KERNELS_H_
#define GRAPHGC_OPSET_KERNELS_BUILTIN_KERNELS_H_

#include "graphgc/opset/kernels/kernel_table.h"

namespace graphgc::kernels {

void RegisterMathKernels(KernelTable& table);       // math/: unary, binary, variadic, Cast, Where
void RegisterReductionKernels(KernelTable& table);  // reduction/: Reduce*, Arg*, Softmax, TopK, ...
void RegisterTensorKernels(KernelTable& table);     // tensor/: shape, gather, scatter, slice, ...
void RegisterLinalgKernels(KernelTable& table);     // linalg/: MatMul, Gemm, Einsum, Det
void RegisterQuantizeKernels(KernelTable& table);   // quantize/: (De)QuantizeLinear, *Integer
void RegisterTextKernels(KernelTable& table);       // text/: StringNormalizer, TfIdfVectorizer

void RegisterConvKernels(KernelTable& table);           // conv/: Conv, ConvTranspose, ...
void RegisterPoolKernels(KernelTable& table);           // pool/: pooling, MaxUnpool, RoiAlign
void RegisterNormalizationKernels(KernelTable& table);  // normalization/: BatchNorm, LRN, ...
void RegisterResampleKernels(KernelTable& table);       // resample/: Resize, GridSample
void RegisterRecurrentKernels(KernelTable& table);      // recurrent/: RNN, GRU, LSTM
void RegisterSignalKernels(KernelTable& table);         // signal/: DFT, STFT, windows
void RegisterDetectionKernels(KernelTable& table);      // detection/: NonMaxSuppression
void RegisterMlKernels(KernelTable& table);             // ml/: the ai.onnx.ml domain
void RegisterSequenceKernels(KernelTable& table);       // sequence/: sequences, optionals
void RegisterMapKernels(KernelTable& table);            // maps/: ZipMap, CastMap, DictVectorizer
void RegisterTrainingKernels(KernelTable& table);       // training/: ai.onnx.preview.training
void RegisterImageKernels(KernelTable& table);          // image/: ImageDecoder

// All of the above.
void RegisterBuiltinKernels(KernelTable& table);

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_BUILTIN_KERNELS_H_
