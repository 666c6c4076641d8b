// The main of every test executable: Google Test's, with every to_onnx checked by ONNX's checker
// (exports skip it by default, being valid by construction; the tests hold them to it).
#include <gmock/gmock.h>

#include "graphgc/export/onnx/to_onnx.h"

int main(int argc, char** argv) {
  graphgc::internal::CheckEveryExport(true);
  testing::InitGoogleMock(&argc, argv);
  return RUN_ALL_TESTS();
}
