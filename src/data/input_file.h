// The checks every input file passes before it is opened: it exists and is a
// regular file. A directory, a FIFO or a device is refused with a message
// (opening a FIFO would block until some writer appears; reading a device
// such as /dev/zero would never end).
#ifndef CDL_INPUT_FILE_H_
#define CDL_INPUT_FILE_H_

#include <fstream>
#include <string>

namespace cdl {

// Throws IoError "path: reason" unless `path` names a regular file.
void check_input_file(const std::string& path);

// check_input_file(), then opens the file for binary reading; throws IoError
// with the system's reason ("Permission denied") if it cannot.
std::ifstream open_input_file(const std::string& path);

}  // namespace cdl

#endif  // CDL_INPUT_FILE_H_
