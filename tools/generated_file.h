// Writing a generator's output: a file whose contents are unchanged is not rewritten, so that
// regeneration does not trigger rebuilds.
#ifndef GRAPHGC_TOOLS_GENERATED_FILE_H_
#define GRAPHGC_TOOLS_GENERATED_FILE_H_

#include <filesystem>
#include <string>

namespace graphgc::opset_gen {

// Writes `contents` to `path` unless the file already holds exactly that; false (after printing
// why) when it cannot be written.
bool WriteGeneratedFile(const std::filesystem::path& path, const std::string& contents);

}  // namespace graphgc::opset_gen

#endif  // GRAPHGC_TOOLS_GENERATED_FILE_H_
