// gen_rcv1like: deterministic generator of rcv1-like synthetic sparse document data, written in
// LIBSVM text format ("label idx:val idx:val ...", 1-based strictly increasing indices).
//
// Model
// -----
// * Vocabulary: F features. Background term ranks r = 1..F have Zipf probabilities p_r ~ r^-s.
//   A fixed random permutation (from the seed) maps rank -> feature index, so frequent terms are
//   spread over the whole index range instead of sitting at the low indices.
// * Topics: kTopics topics, each with kTopicWords distinct words picked uniformly from the
//   background ranks [F/1000, F/2) and its own Zipf(s) distribution over those words. About
//   kPositiveRate of the topics are "positive". Each document picks one topic uniformly; each of
//   its tokens comes from the topic with probability a = kTopicShare, else from the background.
// * Document length: L = max(1, round(Lmean * exp(sigma * z - sigma^2 / 2))) token draws with
//   z ~ N(0, 1) (log-normal with mean Lmean, sigma = kLengthSigma), capped at
//   kMaxLengthFactor * Lmean. Lmean is calibrated once (independent of the seed's document
//   stream) from the expected number of distinct terms, averaged over topics and lengths,
//   D_t(L) = sum_j 1 - (1 - q_tj)^L with q_tj = (1 - a) p_j + a p_tj, so that the average
//   number of distinct terms (= nonzeros) per row is about --avg-terms.
// * Tokens: drawn i.i.d. from the cumulative tables by binary search (background ranks mapped
//   through the permutation); tf = occurrences of each distinct feature in the document.
// * Values: ltc weighting as in rcv1, x_j = (1 + ln tf_j) * idf_j, with the expected idf
//   idf_j = -ln(p_doc_j), p_doc_j = mean over topics of 1 - (1 - q_tj)^Lmean, clamped to
//   >= kMinIdf; the row is then scaled to unit Euclidean length. Every row has >= 1 feature.
// * Labels: a planted linear model. A hidden weight vector w* is drawn once from the seed:
//   each feature gets kBackgroundWeightScale * N(0, 1) with probability kRelevantFraction, and
//   each word of topic t adds sign_t * (kTopicWeightBase + |N(0, 1)|). score = w* . x. The
//   threshold is the (1 - kPositiveRate) quantile of the scores of kBurnInDocs documents drawn
//   from a separate random stream; label = 1 if score > threshold else -1, then each label is
//   flipped with probability --noise (which bounds the attainable accuracy at about 1 - noise).
// * Classes: --classes K (2 <= K <= 20, default 2) with K > 2 gives labels 1..K instead of +-1.
//   Class k has its own planted w*_k, drawn once from a separate stream of the seed: a sparse
//   Gaussian part as above, plus kTopicWeightBase + |N(0, 1)| on every word of the topics t with
//   t mod K = k - 1 (so each class owns 20/K topics, and every class owns at least one). The
//   label is 1 + argmax_k w*_k . x (the lowest k on a tie); with probability --noise it is then
//   replaced by a label drawn uniformly from 1..K. K = 2 is the binary model above, unchanged.
// * Held-out data: --doc-seed S draws the documents (and label noise) from stream S, while the
//   vocabulary, topics, idf and planted model stay those of --seed; so a file made with the
//   same --seed and another --doc-seed is a test set from the same distribution. Without it the
//   documents come from --seed, as before.
// * Randomness: std::mt19937_64 only, with hand-written uniform / normal samplers (no
//   std::*_distribution, whose output is implementation-defined), so the output is
//   byte-identical for the same seed and arguments (given the same <cmath> results).
//   Independent streams (permutation, topics, weights, burn-in, documents) are seeded through
//   splitmix64; the length calibration uses a fixed seed.
// * --target-mb MB overrides --rows: rows are emitted until the output reaches MB * 10^6 bytes.
//   Output goes to OUTPUT_FILE.tmp and is renamed to OUTPUT_FILE on success; on failure the
//   partial file is removed. A one-line summary is printed to stderr at the end.
//
// Build: g++ -std=c++17 -O2 -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror
//          gen/gen_rcv1like.cpp -o gen_rcv1like

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace {

constexpr std::int64_t kDefaultRows = 20000;
constexpr std::int64_t kDefaultFeatures = 47236;
constexpr double kDefaultAvgTerms = 73.0;
constexpr double kDefaultZipf = 1.1;
constexpr double kDefaultNoise = 0.015;
constexpr std::uint64_t kDefaultSeed = 1;

constexpr double kPi = 3.141592653589793238462643383279502884;
constexpr double kLengthSigma = 0.8;
constexpr double kMaxLengthFactor = 40.0;
constexpr double kMinIdf = 0.05;
constexpr std::size_t kTopics = 20;
constexpr std::size_t kTopicWords = 400;
constexpr double kTopicShare = 0.3;
constexpr double kRelevantFraction = 0.1;
constexpr double kBackgroundWeightScale = 0.3;
constexpr double kTopicWeightBase = 0.5;
constexpr double kPositiveRate = 0.47;
constexpr int kBurnInDocs = 2000;
constexpr int kCalibrationSamples = 4096;
constexpr int kGridPoints = 200;
constexpr double kGridMaxLength = 1e8;
constexpr int kValuePrecision = 6;
constexpr std::size_t kFlushBytes = std::size_t{1} << 22;

constexpr std::uint64_t kStreamPermutation = 1;
constexpr std::uint64_t kStreamWeights = 2;
constexpr std::uint64_t kStreamBurnIn = 3;
constexpr std::uint64_t kStreamDocuments = 4;
constexpr std::uint64_t kStreamTopics = 5;
constexpr std::uint64_t kStreamClassWeights = 6;
constexpr std::int64_t kMaxClasses = 20;  // = kTopics, so that every class owns a topic
constexpr std::uint64_t kCalibrationSeed = 0x5eed'ca1b'0000'0001ULL;

struct Options {
  std::int64_t rows = kDefaultRows;
  std::int64_t features = kDefaultFeatures;
  double avg_terms = kDefaultAvgTerms;
  double zipf = kDefaultZipf;
  double noise = kDefaultNoise;
  std::uint64_t seed = kDefaultSeed;
  std::optional<std::uint64_t> doc_seed;
  std::int64_t classes = 2;
  std::optional<double> target_mb;
  std::string output;
};

struct UsageError {
  std::string message;
};

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::mt19937_64 make_stream(std::uint64_t seed, std::uint64_t stream) {
  return std::mt19937_64(splitmix64(splitmix64(seed) ^ splitmix64(stream * 0x100000001b3ULL)));
}

// Uniform double in [0, 1) with 53 random bits.
double uniform01(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

// Uniform index in [0, n).
std::size_t uniform_index(std::mt19937_64& rng, std::size_t n) {
  const auto i = static_cast<std::size_t>(uniform01(rng) * static_cast<double>(n));
  return std::min(i, n - 1);
}

// Standard normal via Box-Muller (one value per call, deterministic).
double standard_normal(std::mt19937_64& rng) {
  const double u1 = 1.0 - uniform01(rng);  // (0, 1]
  const double u2 = uniform01(rng);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * kPi * u2);
}

std::string usage_text() {
  std::string text;
  text += "usage: gen_rcv1like [options] OUTPUT_FILE\n";
  text += "Generate rcv1-like synthetic sparse documents in LIBSVM format (deterministic).\n";
  text += "options:\n";
  text += "  --rows N         number of rows (default " + std::to_string(kDefaultRows) + ")\n";
  text += "  --features F     vocabulary size (default " + std::to_string(kDefaultFeatures) + ")\n";
  text += "  --avg-terms K    average distinct terms per row (default 73)\n";
  text += "  --zipf S         Zipf exponent of term frequencies (default 1.1)\n";
  text += "  --noise P        label flip probability in [0, 0.5] (default 0.015)\n";
  text += "  --seed SEED      random seed, unsigned 64-bit (default 1)\n";
  text +=
      "  --doc-seed S     seed of the documents only; the vocabulary and planted model stay\n"
      "                   those of --seed, so this makes a held-out set (default: --seed)\n";
  text +=
      "  --classes K      K classes labelled 1..K from K planted models, 2 <= K <= 20\n"
      "                   (default 2: labels +1/-1)\n";
  text +=
      "  --target-mb MB   emit rows until the file reaches about MB*10^6 bytes"
      " (overrides --rows)\n";
  text += "  -h, --help       show this help\n";
  return text;
}

std::string format_number(double value) {
  char buffer[64];
  const auto res = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, res.ptr);
}

std::int64_t parse_int(std::string_view name, std::string_view token) {
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc() || end != token.data() + token.size() || value <= 0) {
    throw UsageError{std::string(name) + " expects a positive integer, got '" + std::string(token) +
                     "'"};
  }
  return value;
}

std::uint64_t parse_seed(std::string_view name, std::string_view token) {
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc() || end != token.data() + token.size()) {
    throw UsageError{std::string(name) + " expects an unsigned 64-bit integer, got '" +
                     std::string(token) + "'"};
  }
  return value;
}

double parse_double(std::string_view name, std::string_view token, double lo, double hi,
                    bool lo_inclusive) {
  double value = 0.0;
  const auto [end, ec] =
      std::from_chars(token.data(), token.data() + token.size(), value, std::chars_format::general);
  const bool above_lo = lo_inclusive ? value >= lo : value > lo;
  if (ec != std::errc() || end != token.data() + token.size() || !std::isfinite(value) ||
      !above_lo || value > hi) {
    throw UsageError{std::string(name) + " expects a number in " + (lo_inclusive ? "[" : "(") +
                     format_number(lo) + ", " + format_number(hi) + "], got '" +
                     std::string(token) + "'"};
  }
  return value;
}

// Returns std::nullopt when help was requested.
std::optional<Options> parse_args(int argc, char** argv) {
  Options options;
  bool have_output = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "-h" || arg == "--help") return std::nullopt;
    if (arg.size() < 2 || arg.substr(0, 2) != "--") {
      if (arg.size() > 1 && arg[0] == '-')
        throw UsageError{"unknown option '" + std::string(arg) + "'"};
      if (have_output) throw UsageError{"more than one OUTPUT_FILE given"};
      options.output = std::string(arg);
      have_output = true;
      continue;
    }
    std::string_view name = arg;
    std::string_view value;
    bool have_value = false;
    if (const auto eq = arg.find('='); eq != std::string_view::npos) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
      have_value = true;
    }
    const bool known = name == "--rows" || name == "--features" || name == "--avg-terms" ||
                       name == "--zipf" || name == "--noise" || name == "--seed" ||
                       name == "--doc-seed" || name == "--classes" || name == "--target-mb";
    if (!known) throw UsageError{"unknown option '" + std::string(name) + "'"};
    if (!have_value) {
      if (i + 1 >= argc) throw UsageError{"option " + std::string(name) + " needs a value"};
      value = argv[++i];
    }
    if (name == "--rows") {
      options.rows = parse_int(name, value);
    } else if (name == "--features") {
      options.features = parse_int(name, value);
      if (options.features > (std::int64_t{1} << 31) - 1) {
        throw UsageError{"--features must be below 2^31"};
      }
    } else if (name == "--avg-terms") {
      options.avg_terms = parse_double(name, value, 1.0, 1e6, true);
    } else if (name == "--zipf") {
      options.zipf = parse_double(name, value, 0.0, 10.0, true);
    } else if (name == "--noise") {
      options.noise = parse_double(name, value, 0.0, 0.5, true);
    } else if (name == "--seed") {
      options.seed = parse_seed(name, value);
    } else if (name == "--doc-seed") {
      options.doc_seed = parse_seed(name, value);
    } else if (name == "--classes") {
      options.classes = parse_int(name, value);
      if (options.classes < 2 || options.classes > kMaxClasses) {
        throw UsageError{"--classes must be in [2, " + std::to_string(kMaxClasses) + "], got '" +
                         std::string(value) + "'"};
      }
    } else {
      options.target_mb = parse_double(name, value, 0.0, 1e7, false);
    }
  }
  if (!have_output) throw UsageError{"missing OUTPUT_FILE"};
  if (options.avg_terms > 0.5 * static_cast<double>(options.features)) {
    throw UsageError{"--avg-terms must be at most half of --features"};
  }
  return options;
}

struct Topic {
  std::vector<double> cumulative;      // unnormalised Zipf CDF over the topic's words
  std::vector<std::int32_t> features;  // 0-based feature index per topic word
  std::vector<double> probs;           // normalised probability per topic word
  double sign = 1.0;                   // direction of the topic in w*
};

struct Model {
  std::vector<double> cumulative;             // unnormalised background Zipf CDF over ranks
  std::vector<std::int32_t> rank_to_feature;  // 0-based feature index per rank
  std::vector<double> feature_prob;           // background probability per feature
  std::vector<Topic> topics;
  std::vector<double> idf;     // per feature
  std::vector<double> weight;  // planted w*, per feature
  // With --classes K > 2: w*_k of class k + 1, per feature, class-major (K * F).
  std::vector<double> class_weight;
  std::size_t classes = 2;
  double length_mean = 0.0;
  std::int64_t length_cap = 1;
  double threshold = 0.0;
};

struct Term {
  std::int32_t feature;
  double value;
};

double miss_log(double p) { return std::log1p(-std::min(p, 1.0 - 1e-16)); }

// Expected number of distinct terms of a document, averaged over topics, as a function of the
// number of token draws L: tabulated on a log-spaced grid and interpolated linearly in ln L.
// For topic t the token probability of feature j is q_tj = (1 - a) p_j + a p_tj, and
// D_t(L) = sum_j 1 - (1 - q_tj)^L.
class DistinctCurve {
 public:
  explicit DistinctCurve(const Model& model) : values_(kGridPoints, 0.0) {
    step_ = std::log(kGridMaxLength) / (kGridPoints - 1);
    std::vector<double> lengths(kGridPoints);
    for (std::size_t g = 0; g < lengths.size(); ++g) {
      lengths[g] = std::exp(static_cast<double>(g) * step_);
    }
    const double background_share = 1.0 - kTopicShare;
    for (const double p : model.feature_prob) {
      const double log_miss = miss_log(background_share * p);
      for (std::size_t g = 0; g < lengths.size(); ++g) {
        values_[g] += -std::expm1(lengths[g] * log_miss);
      }
    }
    const double topic_weight = 1.0 / static_cast<double>(model.topics.size());
    for (const Topic& topic : model.topics) {
      for (std::size_t i = 0; i < topic.features.size(); ++i) {
        const double p = model.feature_prob[static_cast<std::size_t>(topic.features[i])];
        const double old_miss = miss_log(background_share * p);
        const double new_miss = miss_log(background_share * p + kTopicShare * topic.probs[i]);
        for (std::size_t g = 0; g < lengths.size(); ++g) {
          values_[g] += topic_weight *
                        (std::expm1(lengths[g] * old_miss) - std::expm1(lengths[g] * new_miss));
        }
      }
    }
  }

  double at(double length) const {
    if (length <= 1.0) return values_.front() * std::max(length, 0.0);
    const double pos = std::log(length) / step_;
    if (pos >= kGridPoints - 1) return values_.back();
    const auto g = static_cast<std::size_t>(pos);
    const double frac = pos - static_cast<double>(g);
    return values_[g] * (1.0 - frac) + values_[g + 1] * frac;
  }

 private:
  std::vector<double> values_;
  double step_ = 1.0;
};

double length_factor(std::mt19937_64& rng) {
  const double z = standard_normal(rng);
  return std::exp(kLengthSigma * z - 0.5 * kLengthSigma * kLengthSigma);
}

std::int64_t draw_length(std::mt19937_64& rng, const Model& model) {
  const auto length =
      static_cast<std::int64_t>(std::llround(model.length_mean * length_factor(rng)));
  return std::clamp<std::int64_t>(length, 1, model.length_cap);
}

// Finds the log-normal mean length whose expected number of distinct terms is avg_terms.
double calibrate_length_mean(const Model& model, double avg_terms) {
  const DistinctCurve curve(model);
  std::mt19937_64 rng(kCalibrationSeed);
  std::vector<double> factors(kCalibrationSamples);
  for (double& f : factors) f = std::min(length_factor(rng), kMaxLengthFactor);
  const auto expected = [&](double mean) {
    double sum = 0.0;
    for (const double f : factors) sum += curve.at(std::max(1.0, std::round(mean * f)));
    return sum / static_cast<double>(factors.size());
  };
  double lo = 1.0;
  double hi = kGridMaxLength / kMaxLengthFactor;
  if (expected(hi) < avg_terms) {
    throw UsageError{"--avg-terms is too large for this --features / --zipf"};
  }
  for (int iter = 0; iter < 100 && hi / lo > 1.0 + 1e-9; ++iter) {
    const double mid = std::sqrt(lo * hi);
    if (expected(mid) < avg_terms) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return std::sqrt(lo * hi);
}

std::size_t draw_from_cdf(std::mt19937_64& rng, const std::vector<double>& cumulative) {
  const double u = uniform01(rng) * cumulative.back();
  const auto it = std::upper_bound(cumulative.begin(), cumulative.end(), u);
  return std::min(static_cast<std::size_t>(it - cumulative.begin()), cumulative.size() - 1);
}

// Draws one document: terms sorted by feature with unit-norm ltc values.
void generate_document(std::mt19937_64& rng, const Model& model, std::vector<std::int32_t>& tokens,
                       std::vector<Term>& terms) {
  const Topic& topic = model.topics[uniform_index(rng, model.topics.size())];
  const std::int64_t length = draw_length(rng, model);
  tokens.clear();
  for (std::int64_t t = 0; t < length; ++t) {
    if (uniform01(rng) < kTopicShare) {
      tokens.push_back(topic.features[draw_from_cdf(rng, topic.cumulative)]);
    } else {
      tokens.push_back(model.rank_to_feature[draw_from_cdf(rng, model.cumulative)]);
    }
  }
  std::sort(tokens.begin(), tokens.end());
  terms.clear();
  double norm2 = 0.0;
  for (std::size_t i = 0; i < tokens.size();) {
    std::size_t j = i + 1;
    while (j < tokens.size() && tokens[j] == tokens[i]) ++j;
    const double tf = static_cast<double>(j - i);
    const double value = (1.0 + std::log(tf)) * model.idf[static_cast<std::size_t>(tokens[i])];
    terms.push_back(Term{tokens[i], value});
    norm2 += value * value;
    i = j;
  }
  const double scale = 1.0 / std::sqrt(norm2);
  for (Term& term : terms) term.value *= scale;
}

double score_document(const Model& model, const std::vector<Term>& terms) {
  double score = 0.0;
  for (const Term& term : terms) {
    score += model.weight[static_cast<std::size_t>(term.feature)] * term.value;
  }
  return score;
}

// Unnormalised Zipf CDF over n items, plus the normalised probabilities.
void zipf_table(std::size_t n, double exponent, std::vector<double>& cumulative,
                std::vector<double>& probs) {
  cumulative.resize(n);
  probs.resize(n);
  double running = 0.0;
  for (std::size_t r = 0; r < n; ++r) {
    probs[r] = std::pow(static_cast<double>(r + 1), -exponent);
    running += probs[r];
    cumulative[r] = running;
  }
  for (double& p : probs) p /= running;
}

void build_topics(const Options& options, Model& model) {
  std::mt19937_64 rng = make_stream(options.seed, kStreamTopics);
  const auto features = static_cast<std::size_t>(options.features);
  // Topic words are drawn from the mid/low-frequency part of the background vocabulary.
  const std::size_t lo_rank = features / 1000;
  const std::size_t hi_rank = std::max(lo_rank + 1, features / 2);
  const std::size_t words = std::min(kTopicWords, hi_rank - lo_rank);
  const auto positive_topics =
      static_cast<std::size_t>(std::llround(kPositiveRate * static_cast<double>(kTopics)));
  std::vector<char> used(features, 0);
  model.topics.resize(kTopics);
  for (std::size_t t = 0; t < kTopics; ++t) {
    Topic& topic = model.topics[t];
    topic.sign = t < positive_topics ? 1.0 : -1.0;
    zipf_table(words, options.zipf, topic.cumulative, topic.probs);
    while (topic.features.size() < words) {
      const std::size_t rank = lo_rank + uniform_index(rng, hi_rank - lo_rank);
      const std::int32_t feature = model.rank_to_feature[rank];
      if (used[static_cast<std::size_t>(feature)] != 0) continue;
      used[static_cast<std::size_t>(feature)] = 1;
      topic.features.push_back(feature);
    }
    for (const std::int32_t feature : topic.features) used[static_cast<std::size_t>(feature)] = 0;
  }
}

// w*_k of each class k + 1 for --classes K > 2 (see the header).
void build_class_weights(const Options& options, Model& model) {
  const auto features = static_cast<std::size_t>(options.features);
  model.classes = static_cast<std::size_t>(options.classes);
  model.class_weight.assign(model.classes * features, 0.0);
  std::mt19937_64 rng = make_stream(options.seed, kStreamClassWeights);
  for (std::size_t k = 0; k < model.classes; ++k) {
    double* weight = model.class_weight.data() + k * features;
    for (std::size_t j = 0; j < features; ++j) {
      const bool relevant = uniform01(rng) < kRelevantFraction;
      const double w = kBackgroundWeightScale * standard_normal(rng);
      if (relevant) weight[j] = w;
    }
  }
  for (std::size_t t = 0; t < model.topics.size(); ++t) {
    double* weight = model.class_weight.data() + (t % model.classes) * features;
    for (const std::int32_t feature : model.topics[t].features) {
      weight[static_cast<std::size_t>(feature)] +=
          kTopicWeightBase + std::fabs(standard_normal(rng));
    }
  }
}

// 1 + argmax_k w*_k . x, the lowest k on a tie.
int class_of_document(const Model& model, const std::vector<Term>& terms) {
  const std::size_t features = model.idf.size();
  std::size_t best = 0;
  double best_score = 0.0;
  for (std::size_t k = 0; k < model.classes; ++k) {
    const double* weight = model.class_weight.data() + k * features;
    double score = 0.0;
    for (const Term& term : terms)
      score += weight[static_cast<std::size_t>(term.feature)] * term.value;
    if (k == 0 || score > best_score) {
      best = k;
      best_score = score;
    }
  }
  return static_cast<int>(best) + 1;
}

Model build_model(const Options& options) {
  Model model;
  const auto features = static_cast<std::size_t>(options.features);
  std::vector<double> probs;
  zipf_table(features, options.zipf, model.cumulative, probs);

  std::mt19937_64 perm_rng = make_stream(options.seed, kStreamPermutation);
  model.rank_to_feature.resize(features);
  for (std::size_t r = 0; r < features; ++r) {
    model.rank_to_feature[r] = static_cast<std::int32_t>(r);
  }
  for (std::size_t r = features; r > 1; --r) {
    std::swap(model.rank_to_feature[r - 1], model.rank_to_feature[uniform_index(perm_rng, r)]);
  }
  model.feature_prob.resize(features);
  for (std::size_t r = 0; r < features; ++r) {
    model.feature_prob[static_cast<std::size_t>(model.rank_to_feature[r])] = probs[r];
  }
  build_topics(options, model);

  model.length_mean = calibrate_length_mean(model, options.avg_terms);
  model.length_cap = std::max<std::int64_t>(
      1, static_cast<std::int64_t>(std::ceil(kMaxLengthFactor * model.length_mean)));

  // Expected document frequency, averaged over topics, at the mean document length.
  const double background_share = 1.0 - kTopicShare;
  std::vector<double> p_doc(features);
  for (std::size_t j = 0; j < features; ++j) {
    p_doc[j] = -std::expm1(model.length_mean * miss_log(background_share * model.feature_prob[j]));
  }
  const double topic_weight = 1.0 / static_cast<double>(model.topics.size());
  for (const Topic& topic : model.topics) {
    for (std::size_t i = 0; i < topic.features.size(); ++i) {
      const auto j = static_cast<std::size_t>(topic.features[i]);
      const double p = background_share * model.feature_prob[j];
      p_doc[j] += topic_weight *
                  (std::expm1(model.length_mean * miss_log(p)) -
                   std::expm1(model.length_mean * miss_log(p + kTopicShare * topic.probs[i])));
    }
  }
  model.idf.resize(features);
  for (std::size_t j = 0; j < features; ++j) {
    const double idf = -std::log(std::max(p_doc[j], 1e-300));
    model.idf[j] = std::max(idf, kMinIdf);
  }

  // Planted w*: a sparse Gaussian part over all features plus a signed part per topic word.
  std::mt19937_64 weight_rng = make_stream(options.seed, kStreamWeights);
  model.weight.assign(features, 0.0);
  for (std::size_t j = 0; j < features; ++j) {
    const bool relevant = uniform01(weight_rng) < kRelevantFraction;
    const double w = kBackgroundWeightScale * standard_normal(weight_rng);
    if (relevant) model.weight[j] = w;
  }
  for (const Topic& topic : model.topics) {
    for (const std::int32_t feature : topic.features) {
      model.weight[static_cast<std::size_t>(feature)] +=
          topic.sign * (kTopicWeightBase + std::fabs(standard_normal(weight_rng)));
    }
  }

  if (options.classes > 2) build_class_weights(options, model);

  std::mt19937_64 burn_rng = make_stream(options.seed, kStreamBurnIn);
  std::vector<std::int32_t> tokens;
  std::vector<Term> terms;
  std::vector<double> scores;
  scores.reserve(kBurnInDocs);
  for (int d = 0; d < kBurnInDocs; ++d) {
    generate_document(burn_rng, model, tokens, terms);
    scores.push_back(score_document(model, terms));
  }
  const auto k = static_cast<std::size_t>((1.0 - kPositiveRate) * kBurnInDocs);
  std::nth_element(scores.begin(), scores.begin() + static_cast<std::ptrdiff_t>(k), scores.end());
  model.threshold = scores[k];
  return model;
}

class OutputFile {
 public:
  explicit OutputFile(std::string path) : path_(std::move(path)), tmp_path_(path_ + ".tmp") {
    stream_.open(tmp_path_, std::ios::binary | std::ios::trunc);
    if (!stream_) fail("cannot open '" + tmp_path_ + "' for writing");
    open_ = true;
    buffer_.reserve(kFlushBytes + (std::size_t{1} << 16));
  }

  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  ~OutputFile() {
    if (open_) {
      stream_.close();
      std::remove(tmp_path_.c_str());
    }
  }

  std::string& buffer() { return buffer_; }
  std::uint64_t bytes() const { return written_ + buffer_.size(); }

  void maybe_flush() {
    if (buffer_.size() >= kFlushBytes) flush();
  }

  void commit() {
    flush();
    stream_.close();
    if (stream_.fail()) fail("error closing '" + tmp_path_ + "'");
    if (std::rename(tmp_path_.c_str(), path_.c_str()) != 0) {
      fail("cannot rename '" + tmp_path_ + "' to '" + path_ + "'");
    }
    open_ = false;
  }

 private:
  void flush() {
    stream_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    if (!stream_) fail("write to '" + tmp_path_ + "' failed");
    written_ += buffer_.size();
    buffer_.clear();
  }

  [[noreturn]] void fail(const std::string& message) { throw std::runtime_error(message); }

  std::string path_;
  std::string tmp_path_;
  std::ofstream stream_;
  std::string buffer_;
  std::uint64_t written_ = 0;
  bool open_ = false;
};

void append_row(std::string& out, int label, const std::vector<Term>& terms) {
  out += std::to_string(label);
  char scratch[64];
  for (const Term& term : terms) {
    scratch[0] = ' ';
    char* const end = scratch + sizeof(scratch);
    auto res = std::to_chars(scratch + 1, end, term.feature + 1);
    *res.ptr++ = ':';
    res = std::to_chars(res.ptr, end, term.value, std::chars_format::general, kValuePrecision);
    out.append(scratch, static_cast<std::size_t>(res.ptr - scratch));
  }
  out += '\n';
}

int run(const Options& options) {
  const Model model = build_model(options);
  std::mt19937_64 rng = make_stream(options.doc_seed.value_or(options.seed), kStreamDocuments);
  const std::uint64_t target_bytes =
      options.target_mb ? static_cast<std::uint64_t>(std::ceil(*options.target_mb * 1e6)) : 0;

  OutputFile out(options.output);
  std::vector<std::int32_t> tokens;
  std::vector<Term> terms;
  std::int64_t rows = 0;
  std::int64_t positives = 0;
  std::uint64_t nonzeros = 0;
  std::int32_t max_feature = 0;
  std::vector<std::int64_t> class_rows(model.classes, 0);
  while (options.target_mb ? out.bytes() < target_bytes : rows < options.rows) {
    generate_document(rng, model, tokens, terms);
    int label = 0;
    if (model.classes > 2) {
      label = class_of_document(model, terms);
      if (uniform01(rng) < options.noise)
        label = 1 + static_cast<int>(uniform_index(rng, model.classes));
      ++class_rows[static_cast<std::size_t>(label - 1)];
    } else {
      label = score_document(model, terms) > model.threshold ? 1 : -1;
      if (uniform01(rng) < options.noise) label = -label;
      if (label > 0) ++positives;
    }
    append_row(out.buffer(), label, terms);
    out.maybe_flush();
    ++rows;
    nonzeros += terms.size();
    max_feature = std::max(max_feature, terms.back().feature + 1);
  }
  const std::uint64_t bytes = out.bytes();
  out.commit();

  const double positive_fraction =
      rows > 0 ? static_cast<double>(positives) / static_cast<double>(rows) : 0.0;
  std::cerr << "gen_rcv1like: rows=" << rows << " max_index=" << max_feature
            << " nonzeros=" << nonzeros << " avg_nnz="
            << (rows > 0 ? static_cast<double>(nonzeros) / static_cast<double>(rows) : 0.0)
            << " bytes=" << bytes;
  if (model.classes > 2) {
    const std::int64_t largest = *std::max_element(class_rows.begin(), class_rows.end());
    const std::int64_t smallest = *std::min_element(class_rows.begin(), class_rows.end());
    std::cerr << " classes=" << model.classes << " class_rows=" << smallest << ".." << largest
              << "\n";
  } else {
    std::cerr << " positive_fraction=" << positive_fraction << "\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::optional<Options> options;
  try {
    options = parse_args(argc, argv);
  } catch (const UsageError& error) {
    std::cerr << "gen_rcv1like: error: " << error.message << "\n" << usage_text();
    return 2;
  }
  if (!options) {
    std::cout << usage_text();
    return 0;
  }
  try {
    return run(*options);
  } catch (const UsageError& error) {
    std::cerr << "gen_rcv1like: error: " << error.message << "\n" << usage_text();
    return 2;
  } catch (const std::exception& error) {
    std::cerr << "gen_rcv1like: error: " << error.what() << "\n";
    return 1;
  }
}
