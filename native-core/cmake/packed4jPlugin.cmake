# Helpers for plugin libraries built against packed4j::core; find_package(packed4j CONFIG) includes this file.
#
# packed4j_plugin_debug_info(<target> [SPLIT])
#
#   Debug info for the plugin <target> in every build type, so the native backtraces of its errors read
#   `#0 mylib::Parse(...)+0x2c at /src/mylib/parse.cc:42 in libmylib.so (+0x12cbf)` even in a Release build with
#   hidden visibility. It adds -g to the target's compile options, leaving the optimization level of the build type
#   as it is (a Release build stays -O3; RelWithDebInfo has -g already).
#
#   SPLIT moves the debug info out of the library after each build, into <library file>.debug next to it, and
#   links the two with .gnu_debuglink (objcopy --only-keep-debug, --strip-debug, --add-gnu-debuglink): the library
#   you ship stays small, and the backtrace finds file:line again wherever the .debug file sits next to the loaded
#   library, in a .debug/ folder beside it, or under /usr/lib/debug (by path or build id).
#
#   File:line comes from libdw (Debian/Ubuntu: apt-get install libdw1) at run time; without it, frames still name
#   their functions from the library's .symtab. A stripped library without a .debug file shows only module+offset.
function(packed4j_plugin_debug_info target)
  cmake_parse_arguments(PARSE_ARGV 1 P4J_DEBUG_INFO "SPLIT" "" "")
  if(P4J_DEBUG_INFO_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "packed4j_plugin_debug_info(${target}): unknown argument(s) "
                        "'${P4J_DEBUG_INFO_UNPARSED_ARGUMENTS}'; expected packed4j_plugin_debug_info(<target> [SPLIT])")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "packed4j_plugin_debug_info: '${target}' is not a target; call it after "
                        "add_library(${target} SHARED ...)")
  endif()
  get_target_property(type ${target} TYPE)
  if(NOT type STREQUAL "SHARED_LIBRARY" AND NOT type STREQUAL "MODULE_LIBRARY")
    message(FATAL_ERROR "packed4j_plugin_debug_info(${target}): expected a SHARED or MODULE library, "
                        "got ${type}")
  endif()
  target_compile_options(${target} PRIVATE -g)
  if(P4J_DEBUG_INFO_SPLIT)
    if(NOT CMAKE_OBJCOPY)
      message(FATAL_ERROR "packed4j_plugin_debug_info(${target} SPLIT) needs objcopy (binutils), which CMake "
                          "did not find: install binutils or set CMAKE_OBJCOPY")
    endif()
    add_custom_command(TARGET ${target} POST_BUILD
      COMMAND "${CMAKE_OBJCOPY}" --only-keep-debug "$<TARGET_FILE:${target}>" "$<TARGET_FILE:${target}>.debug"
      COMMAND "${CMAKE_OBJCOPY}" --strip-debug "--add-gnu-debuglink=$<TARGET_FILE:${target}>.debug"
              "$<TARGET_FILE:${target}>"
      WORKING_DIRECTORY "$<TARGET_FILE_DIR:${target}>"
      COMMENT "packed4j: debug info of ${target} split into <library file>.debug next to it"
      VERBATIM)
  endif()
endfunction()
