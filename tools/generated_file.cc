#include "generated_file.h"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

namespace graphgc::opset_gen {
namespace {

bool SameContents(const std::filesystem::path& path, const std::string& contents) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::string existing((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return existing == contents;
}

}  // namespace

bool WriteGeneratedFile(const std::filesystem::path& path, const std::string& contents) {
  if (SameContents(path, contents)) return true;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << contents;
  out.close();
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    return false;
  }
  return true;
}

}  // namespace graphgc::opset_gen
