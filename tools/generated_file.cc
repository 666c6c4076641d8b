#include "generated_file.h"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>

namespace graphgc::opset_gen {
namespace {

bool SameContents(const std::filesystem::path& path, const std::string& contents) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::string existing((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return existing == contents;
}

bool WriteIfChanged(const char* generator, const std::filesystem::path& path,
                    const std::string& contents) {
  if (SameContents(path, contents)) return true;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << contents;
  out.close();
  if (!out) {
    std::fprintf(stderr, "%s: cannot write %s\n", generator, path.c_str());
    return false;
  }
  return true;
}

}  // namespace

int WriteGeneratedFiles(const char* generator, const std::filesystem::path& out_dir,
                        const std::vector<GeneratedFile>& files) {
  std::error_code error;
  std::filesystem::create_directories(out_dir, error);
  if (error) {
    std::fprintf(stderr, "%s: cannot create %s: %s\n", generator, out_dir.c_str(),
                 error.message().c_str());
    return 1;
  }
  for (const GeneratedFile& file : files) {
    if (!WriteIfChanged(generator, out_dir / file.name, file.contents)) return 1;
  }
  return 0;
}

}  // namespace graphgc::opset_gen
