# Compiles SOURCE and passes only if compilation fails with the message on its "// expected-error:" line.
# Usage: cmake -DCXX=<compiler> -DINCLUDE_DIR=<dir> -DSOURCE=<file.cc> -P check_compile_fail.cmake
file(STRINGS "${SOURCE}" expected_lines REGEX "^// expected-error: ")
list(GET expected_lines 0 expected_line)
string(REGEX REPLACE "^// expected-error: " "" expected "${expected_line}")
execute_process(COMMAND "${CXX}" -std=c++17 -fsyntax-only "-I${INCLUDE_DIR}" "${SOURCE}"
  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(status EQUAL 0)
  message(FATAL_ERROR "${SOURCE} compiled, but it must fail with: ${expected}")
endif()
string(FIND "${output}" "${expected}" position)
if(position EQUAL -1)
  message(FATAL_ERROR "${SOURCE} failed without the expected message \"${expected}\":\n${output}")
endif()
message(STATUS "${SOURCE} fails to compile as expected")
