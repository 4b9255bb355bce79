// A trained linear model and its file format.
//
// The file is LIBLINEAR's text format, key for key, so that LIBLINEAR's
// predict reads our models and we read its linear classification models:
//
//   solver_type L2R_L2LOSS_SVC
//   nr_class 2
//   label 1 -1
//   nr_feature 13
//   bias -1
//   w
//   <one line per feature (plus one for the bias if bias >= 0), holding nr_w
//    weights, each written "%.17g " in the C locale>
//
// nr_w is 1 for two classes (except MCSVM_CS) and nr_class otherwise. For two
// classes, w scores labels[0] as the positive class.
//
// A regression model (solver_type L2R_L2LOSS_SVR, L2R_L2LOSS_SVR_DUAL or
// L2R_L1LOSS_SVR_DUAL) has no label line, nr_class 2 and one weight per
// line; its prediction is the decision value w'x itself. cdlinear writes
// three regression types LIBLINEAR lacks, in the same layout (LIBLINEAR's
// predict refuses them by name): L2R_SQUARED_LOSS (ridge regression,
// 1/2 ||w||^2 + C sum (y - w'x)^2), L1R_SQUARED_LOSS (the Lasso,
// ||w||_1 + C sum (y - w'x)^2) and L1R_L2LOSS_SVR (||w||_1 + C sum
// max(0, |y - w'x| - p)^2).
//
// A one-class model (ONECLASS_SVM, LIBLINEAR 2.50's -s 21) has no label
// line, nr_class 2, bias -1, one weight per line, and a `rho` line between
// `bias` and `w`: its decision value is w'x - rho, and it predicts +1 if
// that is positive, else -1.
#ifndef CDL_MODEL_H_
#define CDL_MODEL_H_

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "data/sparse_matrix.h"
#include "data/task.h"

namespace cdl {

struct LinearModel {
  std::string solver_type;       // LIBLINEAR's name, e.g. L2R_L2LOSS_SVC
  std::vector<int> labels;       // class labels; labels.size() is nr_class
  std::size_t num_features = 0;  // nr_feature, not counting the bias
  double bias = -1;              // < 0: no bias feature
  std::vector<double> w;         // weight_rows() x nr_w, row-major by feature
  double rho = 0;                // a one-class model's offset: decision w'x - rho

  Task task() const;
  // For a regression or one-class model, 2, as LIBLINEAR writes it.
  std::size_t nr_class() const { return task() != Task::kClassification ? 2 : labels.size(); }
  std::size_t nr_w() const;
  std::size_t weight_rows() const { return num_features + (bias >= 0 ? 1 : 0); }

  // Decision values of one instance (0-based indices; indices at or beyond
  // num_features are ignored, as LIBLINEAR does). `out` gets nr_w values;
  // a one-class model's is w'x - rho.
  void decision_values(const Index* indices, const double* values, std::size_t count,
                       std::vector<double>& out) const;
  // The predicted label for the given decision values (+1 or -1 for a
  // one-class model).
  int label_for(const std::vector<double>& decision) const;

  // The predicted labels of every row of `x`, column-major, whose column
  // num_features is the bias feature when bias >= 0 (as train() builds it),
  // or, if x has no such column, the bias is added to every row (a model of
  // a solver with an intercept, predicting its own training data).
  // Columns beyond the model's are ignored. O(nnz + rows * nr_w).
  std::vector<int> predict(const CscMatrix& x) const;
  // The same of the rows of `x`: each row's terms in the order of the
  // columns' scatter, so the same labels.
  std::vector<int> predict(const CsrMatrix& x) const;

  // Whether its decision values give probabilities: whether its model type
  // declares them (ModelTypeInfo::probabilities).
  bool has_probabilities() const;
  // Class probabilities in label order, as the model type says
  // (ProbabilityKind): for one-vs-rest logistic models as LIBLINEAR computes
  // them, 1 / (1 + exp(-decision)) per class, normalized to sum to one for
  // more than two classes; the softmax of the decision values for a model
  // of all classes. Only for has_probabilities() models.
  void probabilities(const std::vector<double>& decision, std::vector<double>& out) const;
};

// The scores of a regression model's predictions v_j against targets y_j:
// the mean squared error and the squared correlation coefficient
// (l sum vy - sum v sum y)^2 / ((l sum vv - (sum v)^2) (l sum yy - (sum y)^2)).
class RegressionScore {
 public:
  void add(double predicted, double target) {
    const double error = predicted - target;
    squared_error_ += error * error;
    sum_v_ += predicted;
    sum_y_ += target;
    sum_vv_ += predicted * predicted;
    sum_yy_ += target * target;
    sum_vy_ += predicted * target;
    ++count_;
  }
  double mean_squared_error() const { return squared_error_ / count_; }
  double squared_correlation() const {
    const double covariance = count_ * sum_vy_ - sum_v_ * sum_y_;
    return covariance * covariance /
           ((count_ * sum_vv_ - sum_v_ * sum_v_) * (count_ * sum_yy_ - sum_y_ * sum_y_));
  }

 private:
  double squared_error_ = 0, sum_v_ = 0, sum_y_ = 0, sum_vv_ = 0, sum_yy_ = 0, sum_vy_ = 0;
  double count_ = 0;
};

// The regression solver types (the solver table says which:
// find_model_type()).
bool is_regression_type(const std::string& solver_type);
// The one-class solver type, LIBLINEAR's ONECLASS_SVM.
bool is_one_class_type(const std::string& solver_type);

// Writes the model atomically (temporary file, then rename), its lines
// formatted on up to `threads` threads (write_model()).
void save_model(const LinearModel& model, const std::string& path, unsigned threads = 1);

// Formats the model file's text.
std::string format_model(const LinearModel& model);
// The same text, handed to `sink` in chunks (the header, then 32,768 lines
// of weights at a time), formatted on up to `threads` threads.
void write_model(const LinearModel& model, const std::function<void(const std::string&)>& sink,
                 unsigned threads = 1);

// Loads and validates a model file; throws ParseError "path:line: reason".
LinearModel load_model(const std::string& path);

// Parses model text; `path` is used in error messages only.
LinearModel parse_model(const std::string& text, const std::string& path);

}  // namespace cdl

#endif  // CDL_MODEL_H_
