#!/usr/bin/env bash
# Whether the generated methods still inline into their callers with the route the runtime builds behind them:
# runs JMH benchmarks for a short while with -XX:+PrintInlining and reports, for each generated method
# (Packed4j_*::*), how HotSpot inlined it in its last compilation and every call below it in the method-handle
# chain (java.lang.invoke, jdk.internal.foreign, dev.packed4j) that it did not inline. Fails when a generated
# method, or a link of the method-handle chain behind it (java.lang.invoke), was left out for its size or depth
# ("too big", "too deep", "NodeCountInliningCutoff"), which would split the call; a runtime helper called out of
# line (a string copy, a result's release) is reported, not failed.
#
#   benchmarks/scripts/inlining.sh ['<JMH regex>' ...]      default: the add, String and no-argument cases
#
# Needs benchmarks/target/benchmarks.jar and benchmarks/target/native/libp4jbench.so (docs/benchmarks.md), and
# JDK 25 (JAVA, default /usr/lib/jvm/temurin-25-jdk-amd64/bin/java).
set -euo pipefail
cd "$(dirname "$0")/../.."
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
patterns=("$@")
if [ ${#patterns[@]} -eq 0 ]; then
  patterns=('AddBenchmark.generated' 'AddFrameRouteBenchmark.generated' 'StringArgumentBenchmark.generated$'
    'NoArgumentBenchmark.generated$')
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$JAVA" --enable-native-access=ALL-UNNAMED -Dpacked4j.bench.library=benchmarks/target/native/libp4jbench.so \
  -jar benchmarks/target/benchmarks.jar -f 1 -wi 3 -w 1s -i 1 -r 1s \
  -jvmArgsAppend '-XX:+UnlockDiagnosticVMOptions -XX:+PrintInlining' "${patterns[@]}" > "$log"
python3 - "$log" <<'PY'
import re, sys
lines = open(sys.argv[1], errors="replace").read().splitlines()
# "   !   @ 12   p.Packed4j_X::add (15 bytes)   inline (hot)   ...": the column of "@" is the depth.
entry = re.compile(r"^(.*?)@ \d+\s+(\S+)\s+\((?:\d+ bytes|not loaded)\)\s*(.*)$")
bad = re.compile(r"too big|too deep|NodeCountInliningCutoff|DesiredMethodLimit")
failed = False
# The last compilation that inlined each generated method is the one that runs (earlier ones are C1's, or C2's
# before the profile settled).
last = {}
for i, line in enumerate(lines):
    m = entry.match(line)
    if m and "Packed4j_" in m.group(2) and "::" in m.group(2):
        last[m.group(2)] = i
generated = {}
for method, i in last.items():
    m = entry.match(lines[i])
    depth, status = len(m.group(1)), m.group(3)
    generated[method] = status.split("   ")[0].strip()
    if bad.search(status):
        failed = True
    # The calls below the generated method: deeper lines until one at its depth or above.
    for below in lines[i + 1:]:
        n = entry.match(below)
        if not n:
            continue
        if len(n.group(1)) <= depth:
            break
        callee, why = n.group(2), n.group(3)
        if "linkToNative" in callee:
            continue  # the downcall itself
        if ("java.lang.invoke" in callee or "dev.packed4j" in callee or "jdk.internal.foreign" in callee) \
                and not re.match(r"(inline|force inline|accessor|\(intrinsic\))", why):
            print(f"  {method} -> {callee}: {why.split('   ')[0]}")
            # A link of the handle chain left out splits the call; a runtime helper called out of line does not.
            if bad.search(why) and "java.lang.invoke" in callee:
                failed = True
for method, status in sorted(generated.items()):
    print(f"{method}: {status}")
if not generated:
    print("no generated method was compiled: run the benchmarks longer")
    failed = True
sys.exit(1 if failed else 0)
PY
