#!/usr/bin/env python3
"""Prints a JMH JSON result of packed4j's benchmarks as Markdown: per case, each binding's time, its ratio to
the raw FFM downcall of the same case, the bytes it allocates per call (from -prof gc), and issue 5's targets.

    python3 benchmarks/scripts/ratios.py benchmarks/target/jmh-result.json

The JSON comes from `java -jar benchmarks.jar -rf json -rff <file>` (the `bench` profile writes
benchmarks/target/jmh-result.json). Standard library only.
"""

import json
import sys
from collections import OrderedDict

PACKAGE = "dev.packed4j.benchmarks."
BASELINE = "rawFfm"
LIST_SIZE = 1_000_000
# Below this, an allocation rate per call is JMH's own noise (a few bytes per million calls), not the binding's.
ZERO_BYTES = 0.5

CASES = OrderedDict([
    ("AddBenchmark", "add(int, int)"),
    ("AddFrameRouteBenchmark", "add(int, int), every method on the call frame (-Dpacked4j.routes.direct=false)"),
    ("NoArgumentBenchmark", "no argument, no result"),
    ("StringArgumentBenchmark", "String argument, long result"),
    ("StringEchoBenchmark", "String argument and result"),
    ("ObjectFieldBenchmark", "@Object long field read"),
    ("ListSumBenchmark", "List<Long> of 1,000,000 summed in C++"),
    ("CallbackBenchmark", "C++ calling a Java (int64, int64) -> int64, per call"),
])

BINDINGS = OrderedDict([
    ("generated", "generated binding"),
    ("generatedPacked", "generated binding, `set_body` (bench.AddPacked)"),
    ("generatedTyped", "generated binding, `set_body_typed` (bench.AddTyped)"),
    ("packedFunction", "`PackedFunction.invoke`"),
    ("packedFunctionPacked", "`PackedFunction.invoke`, `set_body`"),
    ("packedFunctionTyped", "`PackedFunction.invoke`, `set_body_typed`"),
    ("rawFfm", "raw FFM downcall (baseline)"),
    ("rawFfmPackedCall", "raw FFM downcall of `P4JFunctionCall` (packed, no runtime)"),
    ("rawMemoryRead", "raw FFM memory read of the field"),
    ("jni", "JNI"),
    ("jnaDirect", "JNA direct mapping"),
    ("jnaInterface", "JNA interface mapping"),
    ("typedCallback", "typed functional-interface callback (TypedPackedFunc)"),
    ("javaGlobal", "Java global looked up once by name (TypedPackedFunc)"),
    ("packedCallback", "`PackedFunction.of`, called packed"),
])


def load(path):
    """Returns {case: {method: result}} and the list of all results."""
    with open(path, encoding="utf-8") as f:
        results = json.load(f)
    cases = OrderedDict()
    for result in results:
        name = result["benchmark"]
        if name.startswith(PACKAGE):
            name = name[len(PACKAGE):]
        case, _, method = name.rpartition(".")
        cases.setdefault(case, {})[method] = result
    return cases, results


def bytes_per_op(result):
    metric = result.get("secondaryMetrics", {}).get("gc.alloc.rate.norm")
    return None if metric is None else metric["score"]


def describe_bytes(value):
    if value is None:
        return "n/a (run with -prof gc)"
    return "0" if value < ZERO_BYTES else f"{value:,.0f}"


def describe_time(result):
    metric = result["primaryMetric"]
    error = metric.get("scoreError")
    text = f"{metric['score']:,.1f}" if metric["score"] >= 100 else f"{metric['score']:.2f}"
    if isinstance(error, (int, float)) and error == error:  # NaN when there was a single iteration
        text += f" ± {error:,.1f}" if error >= 100 else f" ± {error:.2f}"
    return text


def ordered(methods):
    known = [m for m in BINDINGS if m in methods]
    return known + sorted(m for m in methods if m not in BINDINGS)


def print_case(case, methods):
    unit = next(iter(methods.values()))["primaryMetric"]["scoreUnit"]
    baseline = methods.get(BASELINE)
    list_case = case == "ListSumBenchmark"
    print(f"### {CASES.get(case, case)} ({case})")
    print()
    header = f"| binding | {unit} | × raw FFM | B/op |"
    rule = "| --- | ---: | ---: | ---: |"
    if list_case:
        header += " M elements/s |"
        rule += " ---: |"
    print(header)
    print(rule)
    for method in ordered(methods):
        result = methods[method]
        score = result["primaryMetric"]["score"]
        ratio = f"{score / baseline['primaryMetric']['score']:.2f}x" if baseline else "n/a"
        row = f"| {BINDINGS.get(method, method)} | {describe_time(result)} | {ratio} | " \
              f"{describe_bytes(bytes_per_op(result))} |"
        if list_case:
            row += f" {elements_per_second(result) / 1e6:,.0f} |"
        print(row)
    print()


def elements_per_second(result):
    metric = result["primaryMetric"]
    if metric["scoreUnit"] != "ns/op":
        raise ValueError(f"expected ns/op for the list case, got {metric['scoreUnit']}")
    return LIST_SIZE / (metric["score"] * 1e-9)


def ratio_of(cases, case, method):
    methods = cases.get(case, {})
    if method not in methods or BASELINE not in methods:
        return None
    return methods[method]["primaryMetric"]["score"] / methods[BASELINE]["primaryMetric"]["score"]


def print_targets(cases):
    print("### Targets (issue 5)")
    print()
    print("| target | measured | met |")
    print("| --- | ---: | :---: |")

    def row(target, measured, met):
        verdict = "n/a" if met is None else ("yes" if met else "**no**")
        print(f"| {target} | {measured} | {verdict} |")

    packed = ratio_of(cases, "AddBenchmark", "generatedPacked")
    packed_bytes = bytes_per_op(cases["AddBenchmark"]["generatedPacked"]) if packed is not None else None
    if packed is None:
        row("generated `add` ≤ 2.0x raw FFM, 0 B/op", "not run", None)
    else:
        zero = packed_bytes is not None and packed_bytes < ZERO_BYTES
        row("generated `add` (`set_body`) ≤ 2.0x raw FFM, 0 B/op",
            f"{packed:.2f}x, {describe_bytes(packed_bytes)} B/op", packed <= 2.0 and zero)

    typed = ratio_of(cases, "AddBenchmark", "generatedTyped")
    row("generated `add` (`set_body_typed`) ≤ 1.3x raw FFM",
        "not run" if typed is None else f"{typed:.2f}x", None if typed is None else typed <= 1.3)

    string = ratio_of(cases, "StringArgumentBenchmark", "generated")
    row("String argument ≤ 1.2x raw FFM (reused segment)",
        "not run" if string is None else f"{string:.2f}x", None if string is None else string <= 1.2)

    field = ratio_of(cases, "ObjectFieldBenchmark", "generated")
    row("`@Object` long field read ≤ 0.5x a raw FFM downcall",
        "not run" if field is None else f"{field:.2f}x", None if field is None else field <= 0.5)

    lists = cases.get("ListSumBenchmark", {}).get("generated")
    if lists is None:
        row("1,000,000-element `List<Long>` ≥ 200 M elements/s", "not run", None)
    else:
        rate = elements_per_second(lists)
        row("1,000,000-element `List<Long>` ≥ 200 M elements/s", f"{rate / 1e6:,.0f} M/s", rate >= 200e6)
    print()


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        cases, results = load(argv[1])
    except FileNotFoundError:
        print(f"{argv[1]}: no JMH result (run the benchmarks with -rf json -rff {argv[1]})", file=sys.stderr)
        return 1
    if not results:
        print(f"{argv[1]}: no results", file=sys.stderr)
        return 1
    first = results[0]
    print(f"JMH {first.get('jmhVersion')}, JDK {first.get('jdkVersion')} ({first.get('vmName')} "
          f"{first.get('vmVersion')}), mode {first.get('mode')}, {first.get('forks')} forks, "
          f"{first.get('warmupIterations')} x {first.get('warmupTime')} warm-up, "
          f"{first.get('measurementIterations')} x {first.get('measurementTime')} measurement; "
          f"± is JMH's 99.9% confidence half-interval")
    print()
    for case in list(CASES) + sorted(c for c in cases if c not in CASES):
        if case in cases:
            print_case(case, cases[case])
    print_targets(cases)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
