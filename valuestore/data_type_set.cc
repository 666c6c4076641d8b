#include "graphgc/valuestore/data_type_set.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace graphgc {

std::vector<DataType> DataTypeSet::types() const {
  std::vector<DataType> members;
  for (uint32_t code = 1; code < 64; ++code) {
    if ((bits_ >> code) & 1) members.push_back(static_cast<DataType>(code));
  }
  return members;
}

std::string DataTypeSet::ToString() const {
  return absl::StrCat("{",
                      absl::StrJoin(types(), ", ",
                                    [](std::string* out, DataType type) {
                                      absl::StrAppend(out, DataTypeName(type));
                                    }),
                      "}");
}

}  // namespace graphgc
