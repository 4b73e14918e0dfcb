# Builds tests/consumer against the packed4j package and runs its checker.
#   MODE=build-tree: packed4j_DIR is the packed4j build directory.
#   MODE=install:    installs the build into WORK_DIR/prefix first, then uses <prefix>/lib/cmake/packed4j.
file(REMOVE_RECURSE "${WORK_DIR}")
if(MODE STREQUAL "install")
  execute_process(COMMAND "${CMAKE_COMMAND}" --install "${PACKED4J_BUILD_DIR}" --prefix "${WORK_DIR}/prefix"
    RESULT_VARIABLE status OUTPUT_QUIET)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "cmake --install failed")
  endif()
  file(GLOB_RECURSE configs "${WORK_DIR}/prefix/*/packed4jConfig.cmake")
  list(GET configs 0 config)
  get_filename_component(package_dir "${config}" DIRECTORY)
else()
  set(package_dir "${PACKED4J_BUILD_DIR}")
endif()
execute_process(COMMAND "${CTEST}" --build-and-test "${SOURCE_DIR}" "${WORK_DIR}/build"
    --build-generator "${GENERATOR}"
    --build-options "-Dpacked4j_DIR=${package_dir}" "-DCMAKE_BUILD_TYPE=Release"
    --test-command consumer_check
  RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the consumer project failed against ${package_dir}")
endif()
