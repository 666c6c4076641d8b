// The element types kernels declare where they are registered (opset/kernels/kernel_types.h):
// DataTypeSet, the table's entries, every builtin declaration checked against ONNX's schemas,
// has_kernel per element type, and a kernel never called for a type it did not declare.
#include "graphgc/opset/kernels/kernel_types.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graphgc/graphgc.h"
#include "graphgc/opset/generated/opset17.h"
#include "graphgc/opset/kernels/kernel_table.h"
#include "graphgc/opset/values/kernel_registry.h"
#include "graphgc/valuestore/data_type_set.h"
#include "onnx/defs/schema.h"

namespace graphgc {
namespace {

using ::testing::HasSubstr;

TEST(DataTypeSetTest, HoldsWhatItWasGiven) {
  constexpr DataTypeSet reals = {DataType::kFloat, DataType::kDouble};
  static_assert(reals.contains(DataType::kFloat));
  static_assert(!reals.contains(DataType::kInt64));
  static_assert(!reals.contains(DataType::kUndefined));
  EXPECT_TRUE(data_types::kNumeric.includes(reals));
  EXPECT_FALSE(reals.includes(data_types::kNumeric));
  EXPECT_EQ((reals | DataTypeSet{DataType::kInt64}).types(),
            (std::vector<DataType>{DataType::kFloat, DataType::kInt64, DataType::kDouble}));
  EXPECT_EQ(reals & data_types::kIntegers, DataTypeSet{});
  EXPECT_TRUE((reals & data_types::kIntegers).empty());
  EXPECT_EQ(data_types::kFloatingPoint.without(reals),
            (DataTypeSet{DataType::kFloat16, DataType::kBfloat16}));
  EXPECT_EQ(reals.ToString(), "{float, double}");
  EXPECT_EQ(DataTypeSet{}.ToString(), "{}");
  // Every DataType but kUndefined and the narrow ones (narrow_types_test checks kMovable: all).
  EXPECT_EQ(data_types::kAll.types().size(), 14u);
}

kernels::KernelResult NoValues(const kernels::KernelContext&) {
  return kernels::KernelOutputs{std::nullopt};
}

TEST(KernelTableTest, EntriesKeepTheirDeclaredTypes) {
  kernels::KernelTable table;
  table.add("", "Op", 1, 5, {{"T", data_types::kFloatingPoint}, {"I", data_types::kIndices}},
            NoValues);
  table.add("", "Op", 6, kernels::KernelTable::kLatest, {{"T", data_types::kNumeric}}, NoValues);
  const kernels::KernelEntry* early = table.find("", "Op", 3);
  ASSERT_NE(early, nullptr);
  EXPECT_EQ(early->first, 1);
  EXPECT_EQ(early->last, 5);
  ASSERT_EQ(early->types.constraints().size(), 2u);
  EXPECT_EQ(early->types.constraints()[1].type_param, "I");
  EXPECT_EQ(early->types.primary(), data_types::kFloatingPoint);
  EXPECT_EQ(table.find("", "Op", 17)->types.primary(), data_types::kNumeric);
  EXPECT_EQ(table.find("", "Other", 17), nullptr);
  EXPECT_EQ(kernels::KernelTypes::Unconstrained().primary(), data_types::kAll);
  int visited = 0;
  table.for_each_entry([&](absl::string_view domain, absl::string_view op_type, int first, int last,
                           const kernels::KernelTypes& types) {
    EXPECT_EQ(domain, "");
    EXPECT_EQ(op_type, "Op");
    EXPECT_FALSE(types.constraints().empty());
    ++visited;
  });
  EXPECT_EQ(visited, 2);
}

const onnx::OpSchema::TypeConstraintParam* FindParam(const onnx::OpSchema& schema,
                                                     const std::string& name) {
  for (const auto& param : schema.typeConstraintParams()) {
    if (param.type_param_str == name) return &param;
  }
  return nullptr;
}

// Every builtin declaration names type parameters its schema has, at every schema version its
// range covers, and computes at least one type of its primary parameter that the schema admits
// there (a declaration that did not would leave its op without values at that version).
TEST(KernelDeclarationsTest, FitEverySchemaVersionTheyCover) {
  std::vector<std::string> problems;
  int checked = 0;
  internal::VisitKernelDeclarations([&](absl::string_view domain, absl::string_view op_type,
                                        int first, int last, const kernels::KernelTypes& types) {
    if (!domain.empty() && domain != "ai.onnx.ml") return;  // custom ops (other tests) only
    const int newest = SupportedOpsetVersion(domain);
    std::set<int> since_versions;
    for (int version = first; version <= std::min(last, newest); ++version) {
      const onnx::OpSchema* schema =
          onnx::OpSchemaRegistry::Schema(std::string(op_type), version, std::string(domain));
      if (schema == nullptr || schema->since_version() < first) continue;
      if (!since_versions.insert(schema->since_version()).second) continue;
      ++checked;
      const std::string where =
          absl::StrCat(domain, domain.empty() ? "" : ".", op_type, "-", schema->since_version());
      for (const kernels::TypeConstraint& constraint : types.constraints()) {
        if (FindParam(*schema, constraint.type_param) == nullptr) {
          problems.push_back(
              absl::StrCat(where, ": no type parameter '", constraint.type_param, "'"));
        }
      }
      const internal::ResolvedOp* resolved =
          internal::ResolveOp(domain, op_type, schema->since_version());
      if (resolved->computed_types.empty()) {
        problems.push_back(absl::StrCat(where, ": computes none of the types the schema admits"));
      }
      if (resolved->since_version != schema->since_version()) {
        problems.push_back(absl::StrCat(where, ": resolved as version ", resolved->since_version));
      }
      if (!resolved->deterministic) problems.push_back(absl::StrCat(where, ": not deterministic"));
    }
  });
  EXPECT_GT(checked, 250);
  EXPECT_THAT(problems, ::testing::IsEmpty()) << absl::StrJoin(problems, "\n");
}

TEST(HasKernelTest, AnswersPerElementType) {
  EXPECT_TRUE(has_kernel("Add", {}, DataType::kFloat));
  EXPECT_TRUE(has_kernel("Add", {}, DataType::kBfloat16));
  EXPECT_FALSE(has_kernel("Add", {}, DataType::kString));  // no kernel registers it
  EXPECT_FALSE(has_kernel("Add", {}, DataType::kBool));
  // Opset 7's Add schema admits no bfloat16 (13 added it), so no value either.
  EXPECT_FALSE(has_kernel("Add", {.version = 7}, DataType::kBfloat16));
  EXPECT_TRUE(has_kernel("Add", {.version = 7}, DataType::kDouble));
  // The primary parameter of Cast is its input's, T1.
  EXPECT_TRUE(has_kernel("Cast", {}, DataType::kString));
  EXPECT_FALSE(has_kernel("RandomNormal", {}, DataType::kFloat));
  EXPECT_FALSE(has_kernel("NoSuchOp", {}, DataType::kFloat));
  EXPECT_TRUE(has_kernel("If", {}, DataType::kFloat));
  // Without a type, any type it computes counts.
  EXPECT_TRUE(has_kernel("Add"));
}

TEST(HasKernelTest, NarrowerThanTheSchema) {
  // The log reductions compute floating-point types only; their schema also admits integers.
  EXPECT_TRUE(has_kernel("ReduceLogSum", {.version = 17}, DataType::kFloat));
  EXPECT_FALSE(has_kernel("ReduceLogSum", {.version = 17}, DataType::kInt32));
  const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema("ReduceLogSum", 17, "");
  ASSERT_NE(schema, nullptr);
  const onnx::OpSchema::TypeConstraintParam* t = FindParam(*schema, "T");
  ASSERT_NE(t, nullptr);
  EXPECT_THAT(t->allowed_type_strs, ::testing::Contains("tensor(int32)"));
}

// A kernel is never called for a type it did not declare: the op gets a typed output with no
// value, and value_status names the kernel's types and the operand.
TEST(KernelDeclarationsTest, UndeclaredTypeGetsNoValueAndSaysWhy) {
  Graph g;
  const Var x = g.constant(Tensor::from_vector<int32_t>({1, 2, 3, 4}, {2, 2}));
  const Var y = opset17::ReduceLogSum(x);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y.dtype(), DataType::kInt32);
  EXPECT_FALSE(y.value().has_value());
  const absl::Status why = y.value_status();
  EXPECT_EQ(why.code(), absl::StatusCode::kUnimplemented) << why;
  EXPECT_THAT(why.message(), HasSubstr("kernel for ReduceLogSum computes T in {float"));
  EXPECT_THAT(why.message(), HasSubstr("input 0 (data) is int32"));

  const Var z = opset17::ReduceLogSum(g.constant(Tensor::from_vector<float>({1, 2, 3, 4}, {2, 2})));
  ASSERT_TRUE(z.value().has_value());
  EXPECT_TRUE(z.value_status().ok());
}

TEST(FindUndeclaredOperandTest, ChecksBoundOperandsOnly) {
  const std::vector<internal::OperandTypeCheck> checks = {
      {"T", false, 0, false, data_types::kFloatingPoint},
      {"Tind", false, 1, false, data_types::kIndices},
      {"V", false, 2, true, {DataType::kInt64}},
      {"O", true, 0, false, {DataType::kBool}},
  };
  using DT = DataType;
  const std::vector<DT> good_inputs = {DT::kFloat, DT::kInt32, DT::kInt64, DT::kInt64};
  EXPECT_FALSE(internal::FindUndeclaredOperand(checks, good_inputs, {DT::kBool}).has_value());
  // Omitted inputs and non-tensors (kUndefined) are not checked.
  EXPECT_FALSE(
      internal::FindUndeclaredOperand(checks, {DT::kUndefined, DT::kUndefined}, {DT::kUndefined})
          .has_value());
  const auto variadic = internal::FindUndeclaredOperand(
      checks, {DT::kFloat, DT::kInt32, DT::kInt64, DT::kInt64, DT::kInt8}, {DT::kBool});
  ASSERT_TRUE(variadic.has_value());
  EXPECT_EQ(variadic->check->type_param, "V");
  EXPECT_EQ(variadic->index, 4);
  EXPECT_EQ(variadic->dtype, DT::kInt8);
  const auto output = internal::FindUndeclaredOperand(checks, good_inputs, {DT::kFloat});
  ASSERT_TRUE(output.has_value());
  EXPECT_TRUE(output->check->output);
  const auto index = internal::FindUndeclaredOperand(checks, {DT::kDouble, DT::kUint8}, {});
  ASSERT_TRUE(index.has_value());
  EXPECT_EQ(index->check->type_param, "Tind");
}

}  // namespace
}  // namespace graphgc
