#include "graphgc/ir/function_library.h"

namespace graphgc::internal {

bool FunctionLibrary::Add(absl::string_view domain, absl::string_view name,
                          std::string definition) {
  auto [it, added] =
      definitions_.try_emplace({std::string(domain), std::string(name)}, std::move(definition));
  return added || it->second == definition;
}

const std::string* FunctionLibrary::Find(absl::string_view domain, absl::string_view name) const {
  auto it = definitions_.find(std::pair<std::string, std::string>(domain, name));
  return it == definitions_.end() ? nullptr : &it->second;
}

}  // namespace graphgc::internal
