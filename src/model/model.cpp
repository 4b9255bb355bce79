#include "model/model.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <functional>
#include <iterator>
#include <set>
#include <sstream>
#include <system_error>

#include "data/input_file.h"
#include "data/parse_number.h"
#include "data/quote.h"
#include "objective/loss.h"
#include "solvers/solver_table.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/parallel.h"

namespace cdl {
namespace {

// The solver types: those the solver table's rows write (every type of
// LIBLINEAR's, and cdlinear's for the regressions LIBLINEAR lacks); the
// table says what each is.
bool is_classifier_type(const std::string& name) {
  const ModelTypeInfo* type = find_model_type(name);
  return type != nullptr && has_classes(type->loss);
}

void append_number(std::string& out, double value) {
  char buffer[32];
  auto [ptr, ec] =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, 17);
  out.append(buffer, ptr);
}

// Splits a line into whitespace-separated tokens.
std::vector<std::string_view> split(std::string_view line) {
  std::vector<std::string_view> tokens;
  std::size_t pos = 0;
  while (pos < line.size()) {
    while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t')) ++pos;
    std::size_t end = pos;
    while (end < line.size() && line[end] != ' ' && line[end] != '\t') ++end;
    if (end > pos) tokens.push_back(line.substr(pos, end - pos));
    pos = end;
  }
  return tokens;
}

// Reads lines one at a time, tracking the line number for messages.
class LineCursor {
 public:
  LineCursor(const std::string& text, const std::string& path) : text_(text), path_(path) {}

  bool next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    std::size_t end = text_.find('\n', pos_);
    if (end == std::string::npos) end = text_.size();
    line = std::string_view(text_).substr(pos_, end - pos_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos_ = end + 1;
    ++line_;
    return true;
  }
  [[noreturn]] void fail(const std::string& reason) const {
    throw ParseError(path_, line_, reason);
  }
  std::int64_t line() const { return line_; }

 private:
  const std::string& text_;
  const std::string& path_;
  std::size_t pos_ = 0;
  std::int64_t line_ = 0;
};

template <class Int>
Int expect_integer(const LineCursor& cursor, std::string_view key, std::string_view token) {
  Int value{};
  if (!parse_integer(token, value)) {
    cursor.fail(std::string(key) + ": " + cdl::quoted(token) + " is not a valid integer");
  }
  return value;
}

}  // namespace

bool is_regression_type(const std::string& solver_type) {
  const ModelTypeInfo* type = find_model_type(solver_type);
  return type != nullptr && is_regression(type->loss);
}

bool is_one_class_type(const std::string& solver_type) {
  const ModelTypeInfo* type = find_model_type(solver_type);
  return type != nullptr && is_one_class(type->loss);
}

Task LinearModel::task() const {
  if (is_regression_type(solver_type)) return Task::kRegression;
  return is_one_class_type(solver_type) ? Task::kOneClass : Task::kClassification;
}

std::size_t LinearModel::nr_w() const {
  const ModelTypeInfo* type = find_model_type(solver_type);
  const bool all_classes = type != nullptr && type->all_classes;
  return nr_class() == 2 && !all_classes ? 1 : nr_class();
}

void LinearModel::decision_values(const Index* indices, const double* values, std::size_t count,
                                  std::vector<double>& out) const {
  const std::size_t k_max = nr_w();
  out.assign(k_max, 0.0);
  for (std::size_t t = 0; t < count; ++t) {
    const std::size_t i = indices[t];
    if (i >= num_features) continue;
    const double* row = &w[i * k_max];
    for (std::size_t k = 0; k < k_max; ++k) out[k] += row[k] * values[t];
  }
  if (bias >= 0) {
    const double* row = &w[num_features * k_max];
    for (std::size_t k = 0; k < k_max; ++k) out[k] += row[k] * bias;
  }
  if (task() == Task::kOneClass) out[0] -= rho;
}

namespace {

// The label of `count` decision values among `classes` classes (no labels:
// a one-class model's +1 or -1). As LIBLINEAR: two classes are decided by
// the sign of the first decision value, even for MCSVM_CS, which stores two
// weight columns.
int label_among(const std::vector<int>& labels, std::size_t classes, const double* decision,
                std::size_t count) {
  if (labels.empty()) return decision[0] > 0 ? 1 : -1;
  if (classes == 1) return labels[0];
  if (classes == 2) return decision[0] > 0 ? labels[0] : labels[1];
  std::size_t best = 0;
  for (std::size_t k = 1; k < count; ++k) {
    if (decision[k] > decision[best]) best = k;
  }
  return labels[best];
}

// The labels of the decision values of `num_rows` rows of `num_cols` columns:
// predict()'s end.
std::vector<int> labels_of(const LinearModel& model, std::vector<double>& decision,
                           std::size_t num_rows, std::size_t num_cols) {
  const std::size_t k_max = model.nr_w();
  if (model.bias >= 0 && num_cols <= model.num_features) {
    // x has no bias column (a model with an intercept, trained on x as it
    // is): every row gets the bias weight times bias.
    const double* weights = &model.w[model.num_features * k_max];
    for (std::size_t r = 0; r < num_rows; ++r) {
      for (std::size_t c = 0; c < k_max; ++c) decision[r * k_max + c] += weights[c] * model.bias;
    }
  }
  if (model.task() == Task::kOneClass) {
    for (std::size_t r = 0; r < num_rows; ++r) decision[r] -= model.rho;
  }
  // nr_class() compares the solver type's name: once, not once a row.
  const std::size_t classes = model.nr_class();
  std::vector<int> predicted(num_rows);
  for (std::size_t r = 0; r < num_rows; ++r) {
    predicted[r] = label_among(model.labels, classes, &decision[r * k_max], k_max);
  }
  return predicted;
}

}  // namespace

int LinearModel::label_for(const std::vector<double>& decision) const {
  return label_among(labels, nr_class(), decision.data(), decision.size());
}

std::vector<int> LinearModel::predict(const CscMatrix& x) const {
  const std::size_t k_max = nr_w();
  std::vector<double> decision(x.num_rows * k_max, 0.0);
  const std::size_t columns = std::min(x.num_cols, weight_rows());
  for (std::size_t i = 0; i < columns; ++i) {
    const double* weights = &w[i * k_max];
    for (auto k = x.col_ptr[i]; k < x.col_ptr[i + 1]; ++k) {
      const auto slot = static_cast<std::size_t>(k);
      double* out = &decision[x.row_idx[slot] * k_max];
      for (std::size_t c = 0; c < k_max; ++c) out[c] += weights[c] * x.values[slot];
    }
  }
  return labels_of(*this, decision, x.num_rows, x.num_cols);
}

std::vector<int> LinearModel::predict(const CsrMatrix& x) const {
  const std::size_t k_max = nr_w();
  std::vector<double> decision(x.num_rows * k_max, 0.0);
  const std::size_t columns = std::min(x.num_cols, weight_rows());
  for (std::size_t r = 0; r < x.num_rows; ++r) {
    double* out = &decision[r * k_max];
    for (auto k = x.row_ptr[r]; k < x.row_ptr[r + 1]; ++k) {
      const auto slot = static_cast<std::size_t>(k);
      const std::size_t i = x.col_idx[slot];
      if (i >= columns) continue;
      const double* weights = &w[i * k_max];
      for (std::size_t c = 0; c < k_max; ++c) out[c] += weights[c] * x.values[slot];
    }
  }
  return labels_of(*this, decision, x.num_rows, x.num_cols);
}

namespace {

// The probabilities the model type declares; kNone for a type no row writes.
ProbabilityKind probability_kind(const std::string& solver_type) {
  const ModelTypeInfo* type = find_model_type(solver_type);
  return type != nullptr ? type->probabilities : ProbabilityKind::kNone;
}

}  // namespace

bool LinearModel::has_probabilities() const {
  return probability_kind(solver_type) != ProbabilityKind::kNone;
}

void LinearModel::probabilities(const std::vector<double>& decision,
                                std::vector<double>& out) const {
  out.resize(decision.size());
  if (probability_kind(solver_type) == ProbabilityKind::kSoftmax) {
    // exp(d_k - max d) / sum_m exp(d_m - max d): no term overflows, and the
    // largest is 1, so the sum is at least 1.
    const double largest = *std::max_element(decision.begin(), decision.end());
    double sum = 0;
    for (std::size_t k = 0; k < decision.size(); ++k) {
      sum += out[k] = std::exp(decision[k] - largest);
    }
    for (double& p : out) p /= sum;
    return;
  }
  const auto sigmoid = [](double d) { return 1.0 / (1.0 + std::exp(-d)); };
  if (nr_class() == 2) {
    out.assign(2, sigmoid(decision[0]));
    out[1] = 1.0 - out[0];
    return;
  }
  double sum = 0;
  for (std::size_t k = 0; k < decision.size(); ++k) sum += out[k] = sigmoid(decision[k]);
  for (double& p : out) p /= sum;
}

void write_model(const LinearModel& model, const std::function<void(const std::string&)>& sink,
                 unsigned threads) {
  std::string out;
  out += "solver_type " + model.solver_type + "\n";
  out += "nr_class " + std::to_string(model.nr_class()) + "\n";
  if (model.task() == Task::kClassification) {
    out += "label";
    for (int label : model.labels) out += " " + std::to_string(label);
    out += "\n";
  }
  out += "nr_feature " + std::to_string(model.num_features) + "\n";
  out += "bias ";
  append_number(out, model.bias);
  if (model.task() == Task::kOneClass) {
    out += "\nrho ";
    append_number(out, model.rho);
  }
  out += "\nw\n";
  sink(out);
  // The weights' lines go out in chunks of whole lines of about kChunkNumbers
  // numbers (under 1 MB of text), so that a large model is never held as text
  // in full, however many classes it has; with threads, a batch of chunks is
  // formatted at once (17 significant digits take about 50 ns a number) and
  // handed to `sink` in order, so the text is the same.
  constexpr std::size_t kChunkNumbers = std::size_t{1} << 15;
  const std::size_t k_max = model.nr_w();
  const std::size_t rows = model.weight_rows();
  const std::size_t chunk_rows =
      std::max<std::size_t>(1, kChunkNumbers / std::max<std::size_t>(k_max, 1));
  const std::size_t chunks = (rows + chunk_rows - 1) / chunk_rows;
  const unsigned batch = static_cast<unsigned>(
      std::max<std::size_t>(1, std::min<std::size_t>(std::max(threads, 1u), chunks)));
  std::vector<std::string> texts(batch);
  ThreadTeam team(batch);  // with one thread, no helpers: run() formats on this one
  const auto format_chunk = [&](std::size_t chunk, std::string& text) {
    text.clear();
    const std::size_t end = std::min(rows, (chunk + 1) * chunk_rows);
    for (std::size_t i = chunk * chunk_rows; i < end; ++i) {
      for (std::size_t k = 0; k < k_max; ++k) {
        append_number(text, model.w[i * k_max + k]);
        text += ' ';
      }
      text += '\n';
    }
  };
  for (std::size_t first = 0; first < chunks; first += batch) {
    const std::size_t count = std::min<std::size_t>(batch, chunks - first);
    team.run(count, [&](std::size_t c) { format_chunk(first + c, texts[c]); });
    for (std::size_t c = 0; c < count; ++c) sink(texts[c]);
  }
}

std::string format_model(const LinearModel& model) {
  std::string text;
  write_model(model, [&text](const std::string& chunk) { text += chunk; });
  return text;
}

void save_model(const LinearModel& model, const std::string& path, unsigned threads) {
  AtomicFileWriter writer(path);
  write_model(
      model, [&writer](const std::string& chunk) { writer.write(chunk); }, threads);
  writer.commit();
}

LinearModel load_model(const std::string& path) {
  std::ifstream in = open_input_file(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw IoError(path + ": read error");
  return parse_model(text, path);
}

namespace {

using Tokens = std::vector<std::string_view>;

// What the header said besides the model's own fields.
struct ModelHeader {
  std::set<std::string> seen;  // its keys
  bool has_nr_class = false;
  std::size_t nr_class = 0;
};

// Fails unless the line of `key` has exactly n values.
void need_args(const LineCursor& cursor, const std::string& key, const Tokens& tokens,
               std::size_t n) {
  if (tokens.size() != n + 1) {
    cursor.fail("'" + key + "' takes " + std::to_string(n) + " value" + (n == 1 ? "" : "s") +
                ", got " + std::to_string(tokens.size() - 1));
  }
}

void read_solver_type(const LineCursor& cursor, const Tokens& tokens, LinearModel& model) {
  need_args(cursor, "solver_type", tokens, 1);
  model.solver_type = std::string(tokens[1]);
  if (is_classifier_type(model.solver_type) || is_regression_type(model.solver_type) ||
      is_one_class_type(model.solver_type)) {
    return;
  }
  cursor.fail("unknown solver_type " + cdl::quoted(model.solver_type));
}

void read_nr_class(const LineCursor& cursor, const Tokens& tokens, ModelHeader& header) {
  need_args(cursor, "nr_class", tokens, 1);
  const int value = expect_integer<int>(cursor, "nr_class", tokens[1]);
  if (value < 1) cursor.fail("nr_class must be at least 1, got " + std::to_string(value));
  header.nr_class = static_cast<std::size_t>(value);
  header.has_nr_class = true;
}

// The labels, distinct, one per class: after nr_class, and only in a
// classifier.
void read_labels(const LineCursor& cursor, const Tokens& tokens, const ModelHeader& header,
                 LinearModel& model) {
  if (!header.has_nr_class) cursor.fail("'label' must come after 'nr_class'");
  if (model.task() == Task::kRegression) {
    cursor.fail("a regression model (" + model.solver_type + ") has no 'label' line");
  }
  if (model.task() == Task::kOneClass) {
    cursor.fail("a one-class model (" + model.solver_type + ") has no 'label' line");
  }
  need_args(cursor, "label", tokens, header.nr_class);
  std::set<int> distinct;
  for (std::size_t k = 1; k < tokens.size(); ++k) {
    const int label = expect_integer<int>(cursor, "label", tokens[k]);
    if (!distinct.insert(label).second) {
      cursor.fail("label " + std::to_string(label) + " appears twice");
    }
    model.labels.push_back(label);
  }
}

void read_nr_feature(const LineCursor& cursor, const Tokens& tokens, LinearModel& model) {
  need_args(cursor, "nr_feature", tokens, 1);
  const auto value = expect_integer<std::int64_t>(cursor, "nr_feature", tokens[1]);
  if (value < 0 || static_cast<std::uint64_t>(value) > kMaxDimension) {
    cursor.fail("nr_feature " + cdl::printable(tokens[1]) + " is out of range");
  }
  model.num_features = static_cast<std::size_t>(value);
}

void read_bias(const LineCursor& cursor, const Tokens& tokens, LinearModel& model) {
  need_args(cursor, "bias", tokens, 1);
  if (!parse_double(tokens[1], model.bias)) {
    cursor.fail("bias: " + cdl::quoted(tokens[1]) + " is not a finite number");
  }
}

// A one-class model's offset: after solver_type, and only in one.
void read_rho(const LineCursor& cursor, const Tokens& tokens, LinearModel& model) {
  if (model.solver_type.empty()) cursor.fail("'rho' must come after 'solver_type'");
  if (model.task() != Task::kOneClass) {
    cursor.fail("'rho' is the offset of a one-class model (ONECLASS_SVM), not of " +
                model.solver_type);
  }
  need_args(cursor, "rho", tokens, 1);
  if (!parse_double(tokens[1], model.rho)) {
    cursor.fail("rho: " + cdl::quoted(tokens[1]) + " is not a finite number");
  }
}

[[noreturn]] void fail_unknown_key(const LineCursor& cursor, const std::string& key) {
  // A number: a data file's label on the first line, or a weight whose
  // 'w' line is missing.
  double number = 0;
  const char* hint = !parse_double(key, number) ? ""
                     : cursor.line() == 1       ? "; this looks like a data file, not a model"
                                                : "; is the 'w' line missing?";
  cursor.fail("unknown key " + cdl::quoted(key) +
              " (expected solver_type, nr_class, label, nr_feature, bias, rho or w)" + hint);
}

// Reads the header's lines up to and including 'w' into `model` and `header`.
void read_header(LineCursor& cursor, const std::string& text, const std::string& path,
                 LinearModel& model, ModelHeader& header) {
  std::string_view line;
  for (;;) {
    if (!cursor.next(line)) {
      if (text.empty()) throw ParseError(path, 1, "empty model file");
      cursor.fail("missing 'w' line before the weights");
    }
    const Tokens tokens = split(line);
    if (tokens.empty()) cursor.fail("empty line in the model header");
    const std::string key(tokens[0]);
    if (!header.seen.insert(key).second) cursor.fail("duplicate key " + cdl::quoted(key));
    if (key == "w") {
      if (tokens.size() != 1) cursor.fail("'w' must stand alone on its line");
      return;
    }
    if (key == "solver_type") {
      read_solver_type(cursor, tokens, model);
    } else if (key == "nr_class") {
      read_nr_class(cursor, tokens, header);
    } else if (key == "label") {
      read_labels(cursor, tokens, header, model);
    } else if (key == "nr_feature") {
      read_nr_feature(cursor, tokens, model);
    } else if (key == "bias") {
      read_bias(cursor, tokens, model);
    } else if (key == "rho") {
      read_rho(cursor, tokens, model);
    } else {
      fail_unknown_key(cursor, key);
    }
  }
}

// After 'w': every key the model needs was there ('label' only for a
// classifier, 'rho' only for a one-class model), and a regression or
// one-class model has nr_class 2.
void check_header(const LineCursor& cursor, const LinearModel& model, const ModelHeader& header) {
  const Task task = model.task();
  for (const char* key : {"solver_type", "nr_class", "label", "nr_feature", "bias", "rho"}) {
    const std::string name(key);
    const bool needed = name == "label" ? task == Task::kClassification
                        : name == "rho" ? task == Task::kOneClass
                                        : true;
    if (needed && header.seen.count(key) == 0) {
      cursor.fail(std::string("missing '") + key + "' before 'w'");
    }
  }
  if (task != Task::kClassification && header.nr_class != 2) {
    cursor.fail(std::string("nr_class of a ") +
                (task == Task::kRegression ? "regression" : "one-class") + " model is 2, got " +
                std::to_string(header.nr_class));
  }
}

// Appends a weight line's nr_w() finite numbers to `w`.
void read_weight_line(const LineCursor& cursor, std::string_view line, std::size_t k_max,
                      std::vector<double>& w) {
  const Tokens tokens = split(line);
  if (tokens.size() != k_max) {
    cursor.fail("expected " + std::to_string(k_max) + " weight" + (k_max == 1 ? "" : "s") +
                ", got " + std::to_string(tokens.size()));
  }
  for (auto token : tokens) {
    double value = 0;
    if (!parse_double(token, value)) {
      cursor.fail("weight " + cdl::quoted(token) + " is not a finite number");
    }
    w.push_back(value);
  }
}

// Reads the weight_rows() lines after 'w'; after them, only blank lines.
void read_weights(LineCursor& cursor, std::size_t text_size, const std::string& path,
                  LinearModel& model) {
  const std::size_t rows = model.weight_rows();
  const std::size_t k_max = model.nr_w();
  // The header's counts are not trusted for allocation: a truncated file
  // claiming 2^31 features must fail on its missing lines, not on memory.
  model.w.reserve(std::min(rows * k_max, text_size / 2));
  std::string_view line;
  for (std::size_t i = 0; i < rows; ++i) {
    if (!cursor.next(line)) {
      throw ParseError(
          path, cursor.line() + 1,
          "the weights end after " + std::to_string(i) + " of " + std::to_string(rows) + " lines");
    }
    read_weight_line(cursor, line, k_max, model.w);
  }
  while (cursor.next(line)) {
    if (!split(line).empty()) {
      cursor.fail("more weight lines than nr_feature" +
                  std::string(model.bias >= 0 ? " + 1 (bias)" : "") + " = " + std::to_string(rows));
    }
  }
}

}  // namespace

LinearModel parse_model(const std::string& text, const std::string& path) {
  LinearModel model;
  LineCursor cursor(text, path);
  ModelHeader header;
  read_header(cursor, text, path, model, header);
  check_header(cursor, model, header);
  read_weights(cursor, text.size(), path, model);
  return model;
}

}  // namespace cdl
