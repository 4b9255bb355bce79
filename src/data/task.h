// What a problem or model predicts: a class (margin losses, labels +-1 per
// binary problem) or a real value (regression losses of score and target).
#ifndef CDL_DATA_TASK_H_
#define CDL_DATA_TASK_H_

namespace cdl {

enum class Task { kClassification, kRegression };

}  // namespace cdl

#endif  // CDL_DATA_TASK_H_
