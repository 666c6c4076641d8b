# ort_crosscheck_test: graphgc's propagated values against ONNX Runtime. The test runs
# tests/ort_run.js with node and onnxruntime-node, which tools/bootstrap installs into
# tools/.ort/node_modules; without them the test fails (it does not skip). Included from
# tests/CMakeLists.txt.
find_package(GTest REQUIRED)
include(GoogleTest)

add_executable(ort_crosscheck_test ${CMAKE_CURRENT_LIST_DIR}/ort_crosscheck_test.cc)
target_link_libraries(ort_crosscheck_test PRIVATE graphgc_test_main)
target_compile_options(ort_crosscheck_test PRIVATE ${graphgc_test_options})
target_compile_definitions(ort_crosscheck_test PRIVATE
  GRAPHGC_ORT_RUN_JS="${CMAKE_CURRENT_LIST_DIR}/ort_run.js"
  GRAPHGC_ORT_NODE_MODULES="${PROJECT_SOURCE_DIR}/tools/.ort/node_modules")
gtest_discover_tests(ort_crosscheck_test DISCOVERY_MODE PRE_TEST PROPERTIES TIMEOUT 300)
