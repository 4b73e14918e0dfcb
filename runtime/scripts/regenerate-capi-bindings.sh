#!/usr/bin/env bash
# Regenerates a reference binding of native-core/include/packed4j/c_api.h with jextract and compares its
# function set with the runtime's hand-kept binding (dev.packed4j.runtime.internal.capi.CApi).
#
# CApi keeps jextract's layout (a lazy holder per function, $descriptor/$handle/$address accessors, a static
# method calling the handle with invokeExact) and adds a pointers-as-long overload per function; jextract's output
# is the reference for names and shapes. Run this after changing c_api.h; CApiBindingTest checks the same on
# every build without jextract.
#
# Usage: runtime/scripts/regenerate-capi-bindings.sh [output-directory]
# Exit status: 0 when the function sets match, 1 when they differ, 2 when jextract or an input is missing.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
runtime_dir="$(dirname "$script_dir")"
repo_dir="$(dirname "$runtime_dir")"
header="$repo_dir/native-core/include/packed4j/c_api.h"
binding="$runtime_dir/src/main/java/dev/packed4j/runtime/internal/capi/CApi.java"

if ! command -v jextract >/dev/null 2>&1; then
  cat >&2 <<'MESSAGE'
jextract is not on PATH, so no reference binding can be generated.
Install it from https://jdk.java.net/jextract/ (a build matching JDK 25), put its bin/ directory on PATH and run
this script again. Without jextract, `mvn -pl runtime test` still checks CApi against c_api.h (CApiBindingTest).
MESSAGE
  exit 2
fi
for input in "$header" "$binding"; do
  if [[ ! -f "$input" ]]; then
    echo "missing input: $input" >&2
    exit 2
  fi
done

# dlpack/dlpack.h: the system copy (Debian's libdlpack-dev) or PACKED4J_DLPACK_INCLUDE_DIR.
dlpack_include="${PACKED4J_DLPACK_INCLUDE_DIR:-/usr/include}"
if [[ ! -f "$dlpack_include/dlpack/dlpack.h" ]]; then
  echo "dlpack/dlpack.h not found under $dlpack_include: install libdlpack-dev or set PACKED4J_DLPACK_INCLUDE_DIR" >&2
  exit 2
fi

output="${1:-$(mktemp -d -t packed4j-jextract-XXXXXX)}"
mkdir -p "$output"
jextract \
  --output "$output" \
  --target-package dev.packed4j.runtime.internal.capi.reference \
  --header-class-name c_api_h \
  --include-dir "$repo_dir/native-core/include" \
  --include-dir "$dlpack_include" \
  "$header"
echo "reference binding written to $output" >&2

# The public static methods named P4J... that call a function (not the $descriptor/$handle/$address accessors).
functions_of() {
  grep -rhoE 'public static [A-Za-z_.]+ P4J[A-Za-z0-9_]*\(' "$@" \
    | sed -E 's/.* (P4J[A-Za-z0-9_]*)\($/\1/' | sort -u
}

reference_functions="$(functions_of "$output")"
bound_functions="$(functions_of "$binding")"
if diff <(echo "$reference_functions") <(echo "$bound_functions") >"$output/functions.diff"; then
  echo "CApi binds the $(echo "$reference_functions" | wc -l) functions jextract generates." >&2
  exit 0
fi
echo "CApi and jextract disagree on the function set (< jextract only, > CApi only):" >&2
cat "$output/functions.diff" >&2
exit 1
