package dev.packed4j.samples.tensor;

import dev.packed4j.runtime.DType;
import dev.packed4j.runtime.NDArray;
import dev.packed4j.runtime.Packed4j;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;

/**
 * Multiplies square matrices from 2x2 to 512x512 in C++ (tensor.MM) over Java memory passed without a copy, checks
 * each product against a plain Java loop, and prints each size's times.
 */
public final class TensorApp {
  private TensorApp() {}

  public static void main(String[] args) {
    // libtensor.so is in this application's classes (META-INF/native/linux-x86_64/), put there by the build.
    Packed4j.loadLibrary("tensor");
    TensorOps ops = Packed4j.bind(TensorOps.class);
    Random random = new Random(11);
    // The first call links the method to its native function; do it before timing anything.
    try (NDArray one = NDArray.fromArray(new float[] {1}, 1, 1);
        NDArray product = ops.mm(one, one)) {
      if (product.toFloatArray()[0] != 1) {
        throw new AssertionError("tensor.MM of [[1]] and [[1]] is " + product);
      }
    }
    for (int size = 2; size <= 512; size *= 4) {
      multiplyAndCheck(ops, size, random);
    }
  }

  private static void multiplyAndCheck(TensorOps ops, int size, Random random) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment left = randomMatrix(arena, size, random);
      MemorySegment right = randomMatrix(arena, size, random);
      try (NDArray a = NDArray.wrap(left, DType.FLOAT32, size, size);
          NDArray b = NDArray.wrap(right, DType.FLOAT32, size, size)) {
        long start = System.nanoTime();
        float[] nativeProduct;
        try (NDArray c = ops.mm(a, b)) {
          nativeProduct = c.toFloatArray();
        }
        long nativeNanos = System.nanoTime() - start;
        start = System.nanoTime();
        float[] javaProduct = multiply(left.toArray(ValueLayout.JAVA_FLOAT), right.toArray(ValueLayout.JAVA_FLOAT),
            size);
        long javaNanos = System.nanoTime() - start;
        check(nativeProduct, javaProduct, size);
        System.out.printf("%4dx%-4d C++ tensor.MM %10.3f ms   Java loop %10.3f ms   products agree%n", size, size,
            nativeNanos / 1e6, javaNanos / 1e6);
      }
    }
  }

  private static MemorySegment randomMatrix(Arena arena, int size, Random random) {
    MemorySegment matrix = arena.allocate(ValueLayout.JAVA_FLOAT, (long) size * size);
    for (long i = 0; i < (long) size * size; i++) {
      matrix.setAtIndex(ValueLayout.JAVA_FLOAT, i, random.nextFloat() * 2 - 1);
    }
    return matrix;
  }

  /** The same i-k-j loop as the C++ side, so both round the same sums the same way up to reassociation. */
  private static float[] multiply(float[] a, float[] b, int size) {
    float[] c = new float[size * size];
    for (int i = 0; i < size; i++) {
      for (int p = 0; p < size; p++) {
        float scale = a[i * size + p];
        for (int j = 0; j < size; j++) {
          c[i * size + j] += scale * b[p * size + j];
        }
      }
    }
    return c;
  }

  private static void check(float[] actual, float[] expected, int size) {
    for (int i = 0; i < expected.length; i++) {
      // Each element sums size products of values in [-1, 1]: allow float32 rounding over that many terms.
      if (Math.abs(actual[i] - expected[i]) > 1e-5f * size) {
        throw new AssertionError("tensor.MM " + size + "x" + size + ": element " + i + " is " + actual[i]
            + ", the Java loop gives " + expected[i]);
      }
    }
  }
}
