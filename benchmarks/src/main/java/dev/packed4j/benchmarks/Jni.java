package dev.packed4j.benchmarks;

/**
 * JNI bindings of the same C++ functions (benchmarks/native/jni_twins.cc), written the way JNI code usually is:
 * {@code GetStringUTFRegion} into a stack buffer, {@code NewStringUTF}, {@code GetPrimitiveArrayCritical}.
 */
@SuppressWarnings("restricted") // loads the benchmark plugin: the run passes --enable-native-access
final class Jni {
  static {
    System.load(BenchLibrary.path().toString());
  }

  private Jni() {}

  static native int add(int a, int b);

  static native void nop();

  static native long countCodePoints(String text);

  static native String echoString(String text);

  /** Reads {@code value} of the {@code bench::CounterObject} at handle. */
  static native long counterValue(long handle);

  static native long sum(long[] values);
}
