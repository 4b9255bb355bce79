// The error-to-exit-status mapping shared by the tools' main() functions:
// usage errors exit 2 after the short usage, data, model and I/O errors exit
// 1, no exception escapes main(), and SIGINT, SIGTERM or SIGHUP leaves no
// temporary file behind.
#ifndef CDL_TOOLS_TOOL_MAIN_H_
#define CDL_TOOLS_TOOL_MAIN_H_

#include <iostream>
#include <new>
#include <string>

#include "util/atomic_file.h"
#include "util/error.h"

namespace cdl {

template <class Body>
int run_tool(const char* name, const std::string& usage, Body body) {
  remove_temporary_files_on_signals(name);
  try {
    return body();
  } catch (const ConfigError& e) {
    std::cerr << name << ": error: " << e.what() << '\n' << usage;
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << name << ": error: out of memory\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << name << ": error: " << e.what() << '\n';
    return 1;
  }
}

}  // namespace cdl

#endif  // CDL_TOOLS_TOOL_MAIN_H_
