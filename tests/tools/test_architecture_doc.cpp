// docs/architecture.md against the solver registry: every field of struct
// SolverInfo in src/solvers/solver_table.h, and every option group that a
// row takes (solver_option_groups(), by its name), has its row in the
// document's "Adding a solver" tables. A field or a group added fails here,
// naming it, until the document describes it. The header is parsed and the
// groups are read from the table, so the lists are never written twice.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "solvers/solver_table.h"
#include "test_util.h"

namespace cdl {
namespace {

namespace fs = std::filesystem;

// A file of this repository by its path from the root (data/ is in it).
std::string repository_file(const std::string& path) {
  return (fs::path(test::absolute_data_path("")).parent_path().parent_path() / path).string();
}

// The text with its // comments removed.
std::string without_comments(const std::string& text) {
  std::string out;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) out += line.substr(0, line.find("//")) + '\n';
  return out;
}

// The body of `opening { ... }` in the code (comments removed), or "" if
// the code has no such opening: the text between its brace and the
// matching closing brace.
std::string block_after(const std::string& code, const std::string& opening) {
  const std::size_t at = code.find(opening);
  if (at == std::string::npos) return "";
  const std::size_t open = code.find('{', at);
  if (open == std::string::npos) return "";
  int depth = 0;
  for (std::size_t k = open; k < code.size(); ++k) {
    if (code[k] == '{') ++depth;
    if (code[k] == '}' && --depth == 0) return code.substr(open + 1, k - open - 1);
  }
  return "";
}

// The data members a struct's body declares, in order: each statement at
// the body's own level, less member functions; the name is the one inside
// `(*name)` for a function pointer, else the last word before the
// initializer.
std::vector<std::string> data_members(const std::string& body) {
  std::vector<std::string> names;
  std::string statement;
  int depth = 0;
  for (const char c : body) {
    if (c == '(' || c == '{' || c == '<') ++depth;
    if (c == ')' || c == '}' || c == '>') --depth;
    if (c != ';' || depth != 0) {
      statement += c;
      continue;
    }
    const std::size_t pointer = statement.find("(*");
    std::string declarator;
    if (pointer != std::string::npos) {
      declarator = statement.substr(pointer + 2, statement.find(')', pointer) - pointer - 2);
    } else {
      declarator = statement.substr(0, statement.find_first_of("={"));
      if (declarator.find('(') != std::string::npos) declarator.clear();  // a function
    }
    static const std::regex last_word(R"((\w+)\s*$)");
    std::smatch match;
    if (std::regex_search(declarator, match, last_word)) names.push_back(match[1]);
    statement.clear();
  }
  return names;
}

// The `names` that the first cells of the table rows of a Markdown
// section hold, in backquotes: the lines starting with '|' from the line
// `heading` to the next heading of its level or above.
std::set<std::string> first_cells(const std::string& document, const std::string& heading) {
  std::set<std::string> names;
  std::istringstream lines(document);
  std::string line;
  bool in_section = false;
  while (std::getline(lines, line)) {
    if (line.rfind("## ", 0) == 0 || line.rfind("# ", 0) == 0) {
      in_section = line == heading;
      continue;
    }
    if (!in_section || line.rfind("| ", 0) != 0) continue;
    const std::string cell = line.substr(2, line.find(" |", 1) - 2);
    static const std::regex quoted("`([^`]+)`");
    for (std::sregex_iterator it(cell.begin(), cell.end(), quoted), end; it != end; ++it) {
      names.insert((*it)[1]);
    }
  }
  return names;
}

TEST(ArchitectureDoc, TheParsersReadTheirFormats) {
  const std::string header = without_comments(
      "struct Other { int wrong = 0; };\n"
      "struct SolverInfo {\n"
      "  const char* name = \"\";  // the name; not_a_field = 1;\n"
      "  SolveResult (*solve)(const SolverInput& input) = nullptr;\n"
      "  std::vector<std::pair<LossKind, double>> loss_eps;\n"
      "  std::vector<RegularizerKind> regularizers{RegularizerKind::kL2};\n"
      "  std::size_t (*partitions)(const Params& params,\n"
      "                            std::size_t rows) = nullptr;\n"
      "  bool uses_seed() const;\n"
      "  SolverKind kind{\"\"};\n"
      "};\n");
  EXPECT_EQ(data_members(block_after(header, "struct SolverInfo {")),
            (std::vector<std::string>{"name", "solve", "loss_eps", "regularizers", "partitions",
                                      "kind"}));
  EXPECT_EQ(first_cells("# Doc\n## Other\n| `x` | y |\n## Adding a solver\n\n"
                        "| field | what |\n|---|---|\n| `name`, `stopping` | `-s` |\n"
                        "text `z`\n| `kSelect` | `--select` |\n### A part\n| `dual` | d |\n"
                        "## Next\n| `w` | v |\n",
                        "## Adding a solver"),
            (std::set<std::string>{"name", "stopping", "kSelect", "dual"}));
}

TEST(ArchitectureDoc, DescribesEveryRowFieldAndOption) {
  const std::string header_path = repository_file("src/solvers/solver_table.h");
  const std::string header = without_comments(test::read_file(header_path));
  ASSERT_FALSE(header.empty()) << "cannot read " << header_path;
  const std::vector<std::string> fields = data_members(block_after(header, "struct SolverInfo {"));
  // A parse that finds nothing would pass vacuously.
  ASSERT_GE(fields.size(), 25u) << header_path;
  ASSERT_GE(solver_option_groups().size(), 9u);
  for (const char* known : {"name", "solve", "partitions", "free_bias_l1_losses", "kind"}) {
    ASSERT_EQ(std::count(fields.begin(), fields.end(), known), 1) << known;
  }

  const std::string doc_path = repository_file("docs/architecture.md");
  const std::string doc = test::read_file(doc_path);
  ASSERT_FALSE(doc.empty()) << "cannot read " << doc_path;
  const std::set<std::string> described = first_cells(doc, "## Adding a solver");
  for (const std::string& field : fields) {
    EXPECT_EQ(described.count(field), 1u)
        << doc_path << ": \"Adding a solver\" has no row for SolverInfo::" << field << " ("
        << header_path << ")";
  }
  for (const OptionGroup* group : solver_option_groups()) {
    EXPECT_EQ(described.count(group->name), 1u)
        << doc_path << ": \"Adding a solver\" has no row for the option group " << group->name;
  }
}

}  // namespace
}  // namespace cdl
