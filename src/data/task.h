// What a problem or model predicts: a class (margin losses, labels +-1 per
// binary problem), a real value (regression losses of score and target), or,
// for the one-class SVM, +1 for a typical instance and -1 for an outlier
// (no labels).
#ifndef CDL_DATA_TASK_H_
#define CDL_DATA_TASK_H_

namespace cdl {

enum class Task { kClassification, kRegression, kOneClass };

}  // namespace cdl

#endif  // CDL_DATA_TASK_H_
