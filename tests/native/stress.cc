// Functions the concurrency test uses to change the registry while other threads call: a global registered, or
// replaced, at run time by native code.
#include <packed4j/packed4j.h>

#include <string>

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
