/*!
 * \file backtrace.cc
 * \brief P4JBacktraceFormat: native return addresses as function names and, where debug info exists, file:line.
 *
 * Three sources, best first, for each frame:
 *  1. libdw (elfutils), loaded with dlopen as libdw.so.1 when the system has it (Debian/Ubuntu: libdw1) and
 *     PACKED4J_BACKTRACE_LIBDW is not 0: file:line from the DWARF line table (in the library, or in a split debug
 *     file found by .gnu_debuglink or build id next to it, in .debug/ or under /usr/lib/debug) and the function from
 *     the ELF symbol tables.
 *  2. The module's own .symtab, read here: names of hidden-visibility functions of an unstripped library (the
 *     default Release build of a plugin keeps .symtab), without file:line.
 *  3. dladdr: the dynamic symbol table, i.e. exported functions only.
 * Names are demangled with abi::__cxa_demangle. Nothing here is required at run time: without libdw and .symtab
 * a frame still names its module and offset.
 */
#include <cxxabi.h>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "internal.h"

namespace packed4j {
namespace internal {
namespace {

// ---- libdw, declared here (its headers are not needed to build: only libdw.so.1 at run time, if present) ----

struct Dwfl;
struct Dwfl_Module;
struct Dwfl_Line;
struct Elf;
using Dwarf_Addr = uint64_t;

/*! \brief libdw's Dwfl_Callbacks (libdwfl.h), laid out the same. */
struct DwflCallbacks {
  int (*find_elf)(Dwfl_Module*, void**, const char*, Dwarf_Addr, char**, Elf**);
  int (*find_debuginfo)(Dwfl_Module*, void**, const char*, Dwarf_Addr, const char*, const char*, uint32_t, char**);
  int (*section_address)(Dwfl_Module*, void**, const char*, Dwarf_Addr, const char*, uint32_t, const void*,
                         Dwarf_Addr*);
  char** debuginfo_path;
};

/*! \brief The functions of libdw.so.1 used here, or all NULL when it is absent or disabled. */
struct LibDw {
  Dwfl* (*begin)(const DwflCallbacks*) = nullptr;
  void (*end)(Dwfl*) = nullptr;
  void (*report_begin)(Dwfl*) = nullptr;
  int (*linux_proc_report)(Dwfl*, pid_t) = nullptr;
  int (*report_end)(Dwfl*, int (*)(Dwfl_Module*, void*, const char*, Dwarf_Addr, void*), void*) = nullptr;
  Dwfl_Module* (*addrmodule)(Dwfl*, Dwarf_Addr) = nullptr;
  const char* (*module_addrinfo)(Dwfl_Module*, Dwarf_Addr, uint64_t*, Elf64_Sym*, uint32_t*, Elf**,
                                 Dwarf_Addr*) = nullptr;
  Dwfl_Line* (*module_getsrc)(Dwfl_Module*, Dwarf_Addr) = nullptr;
  const char* (*lineinfo)(Dwfl_Line*, Dwarf_Addr*, int*, int*, uint64_t*, uint64_t*) = nullptr;
  DwflCallbacks callbacks{};

  bool Available() const { return begin != nullptr; }

  /*! \brief Loads libdw.so.1 (once per process); leaves every entry NULL when any is missing. */
  static LibDw Load() {
    LibDw dw;
    const char* setting = std::getenv("PACKED4J_BACKTRACE_LIBDW");
    if (setting != nullptr && std::strcmp(setting, "0") == 0) return dw;
    void* handle = ::dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) return dw;
    bool complete = true;
    auto bind = [&](auto& entry, const char* name) {
      void* symbol = ::dlsym(handle, name);
      if (symbol == nullptr) complete = false;
      entry = reinterpret_cast<std::remove_reference_t<decltype(entry)>>(symbol);
    };
    bind(dw.begin, "dwfl_begin");
    bind(dw.end, "dwfl_end");
    bind(dw.report_begin, "dwfl_report_begin");
    bind(dw.linux_proc_report, "dwfl_linux_proc_report");
    bind(dw.report_end, "dwfl_report_end");
    bind(dw.addrmodule, "dwfl_addrmodule");
    bind(dw.module_addrinfo, "dwfl_module_addrinfo");
    bind(dw.module_getsrc, "dwfl_module_getsrc");
    bind(dw.lineinfo, "dwfl_lineinfo");
    bind(dw.callbacks.find_elf, "dwfl_linux_proc_find_elf");
    bind(dw.callbacks.find_debuginfo, "dwfl_standard_find_debuginfo");
    if (!complete) {
      // An elfutils too old or too new for these signatures: use the floor instead. libdw stays loaded (it may
      // have registered state with the loader; unloading it buys nothing).
      return LibDw();
    }
    return dw;
  }
};

// ---- the module's own .symtab ----

/*! \brief The function symbols of one ELF file, sorted by address (link-time addresses). */
class SymbolTable {
 public:
  /*! \brief Reads path's .symtab; an unreadable file, a stripped one or another format gives an empty table. */
  explicit SymbolTable(const char* path) {
    int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    struct stat st {};
    void* map = MAP_FAILED;
    if (::fstat(fd, &st) == 0 && st.st_size > static_cast<off_t>(sizeof(Elf64_Ehdr))) {
      map = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    }
    ::close(fd);
    if (map == MAP_FAILED) return;
    Read(static_cast<const unsigned char*>(map), static_cast<size_t>(st.st_size));
    ::munmap(map, static_cast<size_t>(st.st_size));
  }

  /*! \brief The function containing the link-time address, and the address's offset in it; NULL if none. */
  const char* Find(uint64_t address, uint64_t* offset) const {
    auto after = std::upper_bound(functions_.begin(), functions_.end(), address,
                                  [](uint64_t a, const Function& f) { return a < f.start; });
    if (after == functions_.begin()) return nullptr;
    const Function& f = *(after - 1);
    if (address >= f.start + std::max<uint64_t>(f.size, 1)) return nullptr;
    *offset = address - f.start;
    return names_.data() + f.name;
  }

 private:
  struct Function {
    uint64_t start;
    uint64_t size;
    size_t name;  // offset in names_
  };

  void Read(const unsigned char* data, size_t size) {
    const auto* header = reinterpret_cast<const Elf64_Ehdr*>(data);
    if (std::memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 || header->e_ident[EI_CLASS] != ELFCLASS64 ||
        header->e_shentsize != sizeof(Elf64_Shdr) || header->e_shoff == 0 ||
        header->e_shoff + static_cast<uint64_t>(header->e_shnum) * sizeof(Elf64_Shdr) > size) {
      return;
    }
    const auto* sections = reinterpret_cast<const Elf64_Shdr*>(data + header->e_shoff);
    for (int i = 0; i < header->e_shnum; ++i) {
      const Elf64_Shdr& symtab = sections[i];
      if (symtab.sh_type != SHT_SYMTAB || symtab.sh_link >= header->e_shnum ||
          symtab.sh_entsize != sizeof(Elf64_Sym) || symtab.sh_offset + symtab.sh_size > size) {
        continue;
      }
      const Elf64_Shdr& strtab = sections[symtab.sh_link];
      if (strtab.sh_offset + strtab.sh_size > size) continue;
      const char* strings = reinterpret_cast<const char*>(data + strtab.sh_offset);
      const auto* symbols = reinterpret_cast<const Elf64_Sym*>(data + symtab.sh_offset);
      size_t count = symtab.sh_size / sizeof(Elf64_Sym);
      for (size_t s = 0; s < count; ++s) {
        const Elf64_Sym& symbol = symbols[s];
        if (ELF64_ST_TYPE(symbol.st_info) != STT_FUNC || symbol.st_shndx == SHN_UNDEF || symbol.st_value == 0 ||
            symbol.st_name >= strtab.sh_size) {
          continue;
        }
        const char* name = strings + symbol.st_name;
        size_t length = strnlen(name, strtab.sh_size - symbol.st_name);
        functions_.push_back(Function{symbol.st_value, symbol.st_size, names_.size()});
        names_.append(name, length);
        names_.push_back('\0');
      }
    }
    std::sort(functions_.begin(), functions_.end(),
              [](const Function& a, const Function& b) { return a.start < b.start; });
  }

  std::vector<Function> functions_;
  std::string names_;
};

// ---- the symbolizer: one per process, behind a lock ----

/*! \brief Counters of the dynamic loader that change when a library is loaded or unloaded. */
std::pair<unsigned long long, unsigned long long> LoaderGeneration() {  // NOLINT(runtime/int): dl_phdr_info's
  std::pair<unsigned long long, unsigned long long> generation{0, 0};   // NOLINT(runtime/int)
  ::dl_iterate_phdr(
      [](struct dl_phdr_info* info, size_t size, void* data) {
        auto* out = static_cast<std::pair<unsigned long long, unsigned long long>*>(data);  // NOLINT(runtime/int)
        if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof(info->dlpi_subs)) {
          *out = {info->dlpi_adds, info->dlpi_subs};
        }
        return 1;
      },
      &generation);
  return generation;
}

std::string Demangle(const char* name) {
  int status = 0;
  char* demangled = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  std::string result = (status == 0 && demangled != nullptr) ? demangled : name;
  std::free(demangled);
  return result;
}

std::string Hex(uint64_t value) {
  char text[32];
  std::snprintf(text, sizeof(text), "0x%llx", static_cast<unsigned long long>(value));  // NOLINT(runtime/int)
  return text;
}

class Symbolizer {
 public:
  Symbolizer() : dw_(LibDw::Load()) {}

  std::string Format(void* const* frames, int32_t count) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto generation = LoaderGeneration();
    if (generation != generation_) {
      // A library came or went since the last trace: what was read of the old set of modules may be stale.
      Reset();
      generation_ = generation;
    }
    std::string out;
    for (int32_t i = 0; i < count; ++i) {
      uintptr_t address = reinterpret_cast<uintptr_t>(frames[i]);
      auto known = frames_.find(address);
      if (known == frames_.end()) {
        // Errors tend to come from the same places again: a frame is looked up once (libdw's symbol lookup
        // scans the module's symbols), then read from here until a library comes or goes.
        if (frames_.size() >= kMaxCachedFrames) frames_.clear();
        known = frames_.emplace(address, FormatFrame(address)).first;
      }
      out += "#" + std::to_string(i) + " " + known->second + "\n";
    }
    return out;
  }

 private:
  void Reset() {
    if (dwfl_ != nullptr) dw_.end(dwfl_);
    dwfl_ = nullptr;
    dwfl_failed_ = false;
    tables_.clear();
    frames_.clear();
  }

  Dwfl* Session() {
    if (dwfl_ != nullptr || dwfl_failed_ || !dw_.Available()) return dwfl_;
    dwfl_ = dw_.begin(&dw_.callbacks);
    if (dwfl_ != nullptr) {
      dw_.report_begin(dwfl_);
      if (dw_.linux_proc_report(dwfl_, ::getpid()) != 0 || dw_.report_end(dwfl_, nullptr, nullptr) != 0) {
        dw_.end(dwfl_);
        dwfl_ = nullptr;
      }
    }
    dwfl_failed_ = dwfl_ == nullptr;
    return dwfl_;
  }

  const SymbolTable& TableOf(const char* path) {
    auto found = tables_.find(path);
    if (found == tables_.end()) found = tables_.emplace(path, std::make_unique<SymbolTable>(path)).first;
    return *found->second;
  }

  std::string FormatFrame(uintptr_t address) {
    // A return address points after its call; the call itself (address - 1) is in the right function and line.
    uintptr_t call = address - 1;
    Dl_info info{};
    struct link_map* module = nullptr;
    if (::dladdr1(reinterpret_cast<void*>(call), &info, reinterpret_cast<void**>(&module), RTLD_DL_LINKMAP) == 0 ||
        info.dli_fname == nullptr) {
      // No library maps it: in a JVM, code the JIT compiled (the Java caller) or a stub the JVM generated.
      return "?? (no library: JIT-compiled or generated code) at " + Hex(address);
    }
    std::string function;
    std::string location;
    if (Dwfl* dwfl = Session()) {
      if (Dwfl_Module* dw_module = dw_.addrmodule(dwfl, call)) {
        uint64_t offset = 0;
        Elf64_Sym symbol{};
        if (const char* name = dw_.module_addrinfo(dw_module, call, &offset, &symbol, nullptr, nullptr, nullptr)) {
          function = Demangle(name) + "+" + Hex(offset + 1);
        }
        if (Dwfl_Line* line = dw_.module_getsrc(dw_module, call)) {
          int number = 0;
          const char* file = dw_.lineinfo(line, nullptr, &number, nullptr, nullptr, nullptr);
          if (file != nullptr) location = std::string(file) + ":" + std::to_string(number);
        }
      }
    }
    if (function.empty() && module != nullptr) {
      uint64_t offset = 0;
      // .symtab holds link-time addresses; l_addr is what the loader added to them.
      if (const char* name = TableOf(info.dli_fname).Find(call - module->l_addr, &offset)) {
        function = Demangle(name) + "+" + Hex(offset + 1);
      }
    }
    if (function.empty() && info.dli_sname != nullptr && info.dli_saddr != nullptr) {
      function = Demangle(info.dli_sname) + "+" + Hex(address - reinterpret_cast<uintptr_t>(info.dli_saddr));
    }
    std::string text = function.empty() ? "??" : function;
    if (!location.empty()) text += " at " + location;
    text += " in ";
    text += info.dli_fname;
    text += " (+" + Hex(address - reinterpret_cast<uintptr_t>(info.dli_fbase)) + ")";
    return text;
  }

  std::mutex mutex_;
  LibDw dw_;
  Dwfl* dwfl_ = nullptr;
  bool dwfl_failed_ = false;
  std::pair<unsigned long long, unsigned long long> generation_{0, 0};  // NOLINT(runtime/int)
  std::map<std::string, std::unique_ptr<SymbolTable>> tables_;
  static constexpr size_t kMaxCachedFrames = 1 << 16;
  std::unordered_map<uintptr_t, std::string> frames_;
};

Symbolizer& TheSymbolizer() {
  // Never destroyed: a trace may be formatted while the process exits (a thread's last error).
  static Symbolizer* symbolizer = new Symbolizer();
  return *symbolizer;
}

}  // namespace
}  // namespace internal
}  // namespace packed4j

using namespace packed4j;  // NOLINT(build/namespaces): the C function below implements packed4j

extern "C" {

int P4JBacktraceFormat(void* const* frames, int32_t num_frames, P4JObjectHandle* out) {
  P4J_SAFE_CALL_BEGIN();
  if (out == nullptr) throw ValueError("P4JBacktraceFormat: out must not be NULL");
  *out = nullptr;
  if (num_frames < 0) {
    throw ValueError("P4JBacktraceFormat: num_frames must be 0 or more, got " + std::to_string(num_frames));
  }
  if (frames == nullptr && num_frames > 0) {
    throw ValueError("P4JBacktraceFormat: frames must not be NULL when num_frames is " + std::to_string(num_frames));
  }
  std::string text = internal::TheSymbolizer().Format(frames, num_frames);
  *out = internal::NewByteArrayObject(kP4JString, text.data(), text.size());
  P4J_SAFE_CALL_END();
}

}  // extern "C"
