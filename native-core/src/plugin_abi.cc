/*!
 * \file plugin_abi.cc
 * \brief P4JPluginCheckAbiVersion: the core refuses a plugin whose headers are of an ABI it cannot read.
 *
 * Typed entries, scalars entries, function cells and object layouts are inline code of the headers, compiled into
 * each plugin, so what the core and its callers can read of a plugin depends on the plugin's headers, not on the
 * core's. The registration macros pass that version with every registration; this file decides.
 */
#include <cstdio>
#include <mutex>
#include <set>

#include "internal.h"

namespace packed4j {
namespace internal {
namespace {

std::string VersionString(int32_t version) {
  uint32_t bits = static_cast<uint32_t>(version);
  return std::to_string(bits >> 16) + "." + std::to_string(bits & 0xffff);
}

/*! \brief Why this core cannot read a plugin built with headers of plugin_version; empty when it can. */
std::string Mismatch(int32_t plugin_version) {
  uint32_t bits = static_cast<uint32_t>(plugin_version);
  if ((bits >> 16) != P4J_ABI_VERSION_MAJOR) {
    return "another major version: its typed entries, cells and layouts are of another ABI";
  }
  if ((bits & 0xffff) > P4J_ABI_VERSION_MINOR) {
    return "a newer minor version: it may rely on functions and forms this core does not have";
  }
  return "";
}

/*!
 * \brief The plugins refused so far. Each refused registration raises the error (the registering code writes it
 *  to stderr), but only the first of a plugin is recorded for the loader, which reports one refusal per plugin.
 */
struct RefusedPlugins {
  std::mutex mutex;
  std::set<std::string> files;

  static RefusedPlugins* Get() {
    static RefusedPlugins* refused = new RefusedPlugins();  // never destroyed: plugins may register at exit
    return refused;
  }
};

}  // namespace
}  // namespace internal
}  // namespace packed4j

using namespace packed4j;  // NOLINT(build/namespaces): the C function below implements packed4j

extern "C" {

int P4JPluginCheckAbiVersion(int32_t plugin_abi_version) {
  P4J_SAFE_CALL_BEGIN();
  std::string reason = internal::Mismatch(plugin_abi_version);
  if (reason.empty()) return 0;
  // The caller is inline code of the plugin's headers (the registration macros), so its return address is in the
  // plugin.
  std::string plugin = internal::LibraryOf(__builtin_return_address(0));
  std::string core = internal::LibraryOf(reinterpret_cast<const void*>(&P4JAbiVersion));
  std::string plugin_version = internal::VersionString(plugin_abi_version);
  std::string core_version = internal::VersionString(P4J_ABI_VERSION);
  std::string plugin_major = std::to_string(static_cast<uint32_t>(plugin_abi_version) >> 16);
  std::string message = "ABI version mismatch: plugin library " + plugin +
                        " was compiled against packed4j headers of ABI " + plugin_version + ", and libpacked4j.so (" +
                        core + ") has ABI " + core_version + " (" + reason +
                        "), so none of its functions and types is registered: rebuild the plugin against the "
                        "headers of this libpacked4j.so (ABI " + core_version + "), or use a libpacked4j.so of ABI " +
                        plugin_version + " or a later " + plugin_major + ".x";
  internal::RefusedPlugins* refused = internal::RefusedPlugins::Get();
  bool first;
  {
    std::lock_guard<std::mutex> lock(refused->mutex);
    first = refused->files.insert(plugin).second;
  }
  if (first) internal::RecordRegistrationError("LoadError: " + message);
  throw Error("LoadError", message);
  P4J_SAFE_CALL_END();
}

}  // extern "C"
