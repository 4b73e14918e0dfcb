// Functions the concurrency test uses: a global registered, or replaced, at run time by native code while other
// threads call; a Java callback called from native threads of its own under that load.
#include <packed4j/packed4j.h>

#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace packed4j;

namespace {

/*!
 * \brief Registers name as a function returning value; with replace, over an existing registration (the old
 *  function stays alive for callers that hold it). A refused registration is a ValueError for the caller.
 */
P4J_REGISTER_GLOBAL("test.RegisterConstant")
    .set_body_typed([](std::string name, int64_t value, bool replace) {
      PackedFunc constant = PackedFunc::FromTyped([value]() { return value; }, name);
      P4JByteArray key = details::ByteArrayOf(name);
      details::CheckCall(P4JFunctionSetGlobal(&key, constant.handle(), replace ? 1 : 0));
    });

}  // namespace

namespace {

/*!
 * \brief Calls function(thread, call, text) from `threads` new native threads, `calls` times on each, every thread
 *  holding its own copy (a reference) of the function; each result must be thread * 1000000 + call + the length of
 *  text. Returns the number of right results; a wrong one, or the function's reference count not back where it was
 *  once the threads are gone, is a RuntimeError saying which.
 */
int64_t CallOnNativeThreads(PackedFunc function, int64_t threads, int64_t calls, std::string text) {
  if (threads < 1 || threads > 64 || calls < 0) {
    throw ValueError("test.stress.CallbackOnThreads: threads must be in [1, 64] and calls >= 0, got " +
                     std::to_string(threads) + " and " + std::to_string(calls));
  }
  uint64_t references = function.use_count();
  std::atomic<int64_t> right{0};
  std::mutex wrong_mutex;
  std::string wrong;
  std::vector<std::thread> workers;
  for (int64_t t = 0; t < threads; ++t) {
    workers.emplace_back([function, t, calls, &text, &right, &wrong_mutex, &wrong] {
      for (int64_t i = 0; i < calls; ++i) {
        std::string problem;
        try {
          int64_t result = static_cast<int64_t>(function(t, i, text));
          int64_t expected = t * 1000000 + i + static_cast<int64_t>(text.size());
          if (result == expected) {
            ++right;
            continue;
          }
          problem = "thread " + std::to_string(t) + " call " + std::to_string(i) + ": got " + std::to_string(result) +
                    ", expected " + std::to_string(expected);
        } catch (const Error& error) {
          problem = "thread " + std::to_string(t) + " call " + std::to_string(i) + ": " + error.kind() + ": " +
                    error.message();
        }
        std::lock_guard<std::mutex> lock(wrong_mutex);
        if (wrong.empty()) wrong = problem;
      }
    });
  }
  for (auto& worker : workers) worker.join();
  if (!wrong.empty()) throw RuntimeError("test.stress.CallbackOnThreads: " + wrong);
  if (function.use_count() != references) {
    throw RuntimeError("test.stress.CallbackOnThreads: the function has " + std::to_string(function.use_count()) +
                       " references after the threads ended, " + std::to_string(references) + " before");
  }
  return right.load();
}

P4J_REGISTER_GLOBAL("test.stress.CallbackOnThreads").set_body_typed(CallOnNativeThreads);

}  // namespace
