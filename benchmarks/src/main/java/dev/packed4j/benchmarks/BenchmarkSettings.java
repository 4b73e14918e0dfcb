package dev.packed4j.benchmarks;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The settings every case shares (issue 5): average time in ns per call, 2 forks, 5 x 1 s warm-up, 5 x 1 s
 * measurement. Each case is a subclass with one method per binding; the method {@code rawFfm} is the baseline the
 * report (scripts/ratios.py) divides by. The forked JVMs inherit the host's {@code -Dpacked4j.bench.library}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@State(Scope.Thread)
public abstract class BenchmarkSettings {}
