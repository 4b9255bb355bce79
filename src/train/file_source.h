// cdtrain's RunSource (driver.h): the training data read from one file (or
// standard input, or the --cache of the file) by this process, as rows or
// as columns, whichever the solver reads; the folds and the classes on its
// threads; the model written atomically with the --trace, if any.
#ifndef CDL_TRAIN_FILE_SOURCE_H_
#define CDL_TRAIN_FILE_SOURCE_H_

#include <memory>
#include <string>

#include "train/driver.h"

namespace cdl {

// `tool` names the program in messages ("cdtrain").
std::unique_ptr<RunSource> file_source(const std::string& tool);

}  // namespace cdl

#endif  // CDL_TRAIN_FILE_SOURCE_H_
