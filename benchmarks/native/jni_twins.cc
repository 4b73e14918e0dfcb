// JNI bindings of the benchmark functions for dev.packed4j.benchmarks.Jni, written the way JNI code usually is.
#include <jni.h>

#include <cstdint>
#include <memory>
#include <string>

#include "bench_functions.h"
#include "c_twins.h"

namespace {

// Copies a Java string as (modified) UTF-8 into a stack buffer, or the heap when it does not fit. Modified
// UTF-8 differs from UTF-8 only for NUL and supplementary characters, which the benchmark's text has none of.
class Utf8Chars {
 public:
  Utf8Chars(JNIEnv* env, jstring text) : size_(env->GetStringUTFLength(text)) {
    if (size_ >= static_cast<jsize>(sizeof(stack_))) {
      heap_.reset(new char[size_ + 1]);
      data_ = heap_.get();
    }
    env->GetStringUTFRegion(text, 0, env->GetStringLength(text), data_);  // writes a NUL after the bytes
  }

  std::string_view view() const { return {data_, static_cast<size_t>(size_)}; }

 private:
  jsize size_;
  char stack_[256];
  std::unique_ptr<char[]> heap_;
  char* data_ = stack_;
};

}  // namespace

extern "C" {

JNIEXPORT jint JNICALL Java_dev_packed4j_benchmarks_Jni_add(JNIEnv*, jclass, jint a, jint b) {
  return static_cast<jint>(bench::Add(a, b));
}

JNIEXPORT void JNICALL Java_dev_packed4j_benchmarks_Jni_nop(JNIEnv*, jclass) { bench::Nop(); }

JNIEXPORT jlong JNICALL Java_dev_packed4j_benchmarks_Jni_countCodePoints(JNIEnv* env, jclass, jstring text) {
  Utf8Chars chars(env, text);
  return bench::CountCodePoints(chars.view());
}

JNIEXPORT jstring JNICALL Java_dev_packed4j_benchmarks_Jni_echoString(JNIEnv* env, jclass, jstring text) {
  Utf8Chars chars(env, text);
  std::string echoed = bench::EchoString(chars.view());
  return env->NewStringUTF(echoed.c_str());
}

JNIEXPORT jlong JNICALL Java_dev_packed4j_benchmarks_Jni_counterValue(JNIEnv*, jclass, jlong handle) {
  return bench_counter_value(reinterpret_cast<const void*>(handle));
}

JNIEXPORT jlong JNICALL Java_dev_packed4j_benchmarks_Jni_sum(JNIEnv* env, jclass, jlongArray values) {
  jsize count = env->GetArrayLength(values);
  auto* data = static_cast<const jlong*>(env->GetPrimitiveArrayCritical(values, nullptr));
  int64_t sum = bench::Sum(count, [data](int64_t i) { return static_cast<int64_t>(data[i]); });
  env->ReleasePrimitiveArrayCritical(values, const_cast<jlong*>(data), JNI_ABORT);
  return sum;
}

}  // extern "C"
