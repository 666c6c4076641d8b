// A generator's output files and their writing: a file whose contents are unchanged is not
// rewritten, so that regeneration does not trigger rebuilds.
#ifndef GRAPHGC_TOOLS_GENERATED_FILE_H_
#define GRAPHGC_TOOLS_GENERATED_FILE_H_

#include <filesystem>
#include <string>
#include <vector>

namespace graphgc::opset_gen {

struct GeneratedFile {
  std::string name;  // a file name in the output folder, e.g. "opset13.h"
  std::string contents;
};

// Creates `out_dir` if needed and writes every file into it, as `generator` (named in messages);
// 0 on success, 1 (after printing why) when the folder or a file cannot be written.
int WriteGeneratedFiles(const char* generator, const std::filesystem::path& out_dir,
                        const std::vector<GeneratedFile>& files);

}  // namespace graphgc::opset_gen

#endif  // GRAPHGC_TOOLS_GENERATED_FILE_H_
