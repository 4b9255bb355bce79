// The man pages (man/<tool>.1) against the tools' -h: every option that -h
// lists has an entry in the page's OPTIONS section, and every entry there is
// an option that -h lists. An option added to a tool fails here, naming the
// option and the page, until the page describes it.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "test_util.h"

namespace cdl {
namespace {

namespace fs = std::filesystem;

const char* const kTools[] = {"cdtrain", "cdpredict", "cdscale"};

// man/<tool>.1 of this repository (data/ is in its root).
std::string man_page(const std::string& tool) {
  return (fs::path(test::absolute_data_path("")).parent_path().parent_path() / "man" /
          (tool + ".1"))
      .string();
}

// The options -h lists: after the "options:" line, the first word of each
// line at the first option's indentation (deeper lines continue an option's
// text), up to a blank line or a line that is not an option.
std::set<std::string> help_options(const std::string& help) {
  std::set<std::string> options;
  std::istringstream lines(help);
  std::string line;
  bool in_options = false;
  std::size_t indent = std::string::npos;
  while (std::getline(lines, line)) {
    if (!in_options) {
      in_options = line == "options:";
      continue;
    }
    const std::size_t at = line.find_first_not_of(' ');
    if (at == std::string::npos) break;
    if (indent == std::string::npos) indent = at;
    if (at > indent) continue;
    if (at < indent || line[at] != '-') break;
    options.insert(line.substr(at, line.find_first_of(" ,", at) - at));
  }
  return options;
}

// The text a man(7) line shows: the font macros' arguments (.B and .I
// joined by spaces, .BI, .BR and the like by nothing), with the escapes
// \- \f? \& \| \^ and \(xx resolved or dropped.
std::string rendered(const std::string& line) {
  std::string text = line;
  if (!line.empty() && line[0] == '.') {
    const std::size_t space = line.find(' ');
    const std::string macro = line.substr(1, space == std::string::npos ? space : space - 1);
    std::vector<std::string> args;
    std::string arg;
    bool quoted = false;
    bool any = false;
    for (std::size_t k = space == std::string::npos ? line.size() : space; k < line.size(); ++k) {
      const char c = line[k];
      if (c == '"') {
        quoted = !quoted;
        any = true;
      } else if (c == ' ' && !quoted) {
        if (any) args.push_back(arg);
        arg.clear();
        any = false;
      } else {
        arg += c;
        any = true;
      }
    }
    if (any) args.push_back(arg);
    const std::string separator = macro == "B" || macro == "I" ? " " : "";
    text.clear();
    for (std::size_t k = 0; k < args.size(); ++k) text += (k > 0 ? separator : "") + args[k];
  }
  std::string out;
  for (std::size_t k = 0; k < text.size(); ++k) {
    if (text[k] != '\\' || k + 1 == text.size()) {
      out += text[k];
      continue;
    }
    const char next = text[++k];
    if (next == '-') {
      out += '-';
    } else if (next == 'f') {
      ++k;  // the font letter
    } else if (next == '(') {
      k += 2;
      out += ' ';
    } else if (next != '&' && next != '|' && next != '^') {
      out += next;
    }
  }
  return out;
}

// The options that the OPTIONS section of a page describes: the words
// starting with '-' in the tag line of each .TP entry.
std::set<std::string> man_options(const std::string& page) {
  std::set<std::string> options;
  std::istringstream lines(page);
  std::string line;
  bool in_options = false;
  bool tag_next = false;
  while (std::getline(lines, line)) {
    if (line.rfind(".SH", 0) == 0) {
      in_options = line == ".SH OPTIONS";
      continue;
    }
    if (!in_options) continue;
    if (line == ".TP") {
      tag_next = true;
      continue;
    }
    if (!tag_next) continue;
    tag_next = false;
    std::istringstream words(rendered(line));
    std::string word;
    while (words >> word) {
      while (!word.empty() && (word.back() == ',' || word.back() == ';')) word.pop_back();
      if (word.size() >= 2 && word[0] == '-' && (std::isalpha(word[1]) || word[1] == '-')) {
        options.insert(word);
      }
    }
  }
  return options;
}

TEST(ManPages, TheParsersReadTheirFormats) {
  EXPECT_EQ(rendered(".BI \\-w i \" weight\""), "-wi weight");
  EXPECT_EQ(rendered(".BR \\-V \", \" \\-\\-verbose"), "-V, --verbose");
  EXPECT_EQ(rendered(".B \\-\\-cache"), "--cache");
  EXPECT_EQ(rendered("\\fB\\-q\\fR quiet"), "-q quiet");
  EXPECT_EQ(man_options(".SH OPTIONS\n.TP\n.BI \\-s \" solver\"\ntext \\-x\n.TP\n.BR \\-V \", "
                        "\" \\-\\-verbose\n.SH EXAMPLES\n.TP\n.B \\-z\n"),
            (std::set<std::string>{"-s", "-V", "--verbose"}));
  EXPECT_EQ(help_options("usage\n\noptions:\n  -s solver  text\n  -wi weight text\n"
                         "  --cache    text\n\nsolvers:\n  -x\n"),
            (std::set<std::string>{"-s", "-wi", "--cache"}));
  EXPECT_EQ(help_options("options:\n-l lower : text\n           -z more text\n-y a b : t\nEnd.\n"),
            (std::set<std::string>{"-l", "-y"}));
}

TEST(ManPages, OptionsAreThoseOfTheToolsHelp) {
  for (const char* tool : kTools) {
    SCOPED_TRACE(tool);
    const auto help = test::run_tool(tool, "-h");
    ASSERT_EQ(help.status, 0) << help.err;
    const std::set<std::string> listed = help_options(help.out);
    // A parse that finds nothing would pass vacuously.
    ASSERT_GE(listed.size(), 5u) << tool << " -h:\n" << help.out;
    ASSERT_TRUE(listed.count("-h") == 1 && listed.count("--version") == 1) << help.out;
    const std::string path = man_page(tool);
    const std::string page = test::read_file(path);
    ASSERT_FALSE(page.empty()) << "cannot read " << path;
    const std::set<std::string> described = man_options(page);
    for (const std::string& option : listed) {
      if (described.count(option) == 0) {
        ADD_FAILURE() << path << ": OPTIONS lacks " << option << ", which `" << tool
                      << " -h` lists";
      }
    }
    for (const std::string& option : described) {
      if (listed.count(option) == 0) {
        ADD_FAILURE() << path << ": OPTIONS describes " << option << ", which `" << tool
                      << " -h` does not list";
      }
    }
  }
}

TEST(ManPages, HaveTheSectionsOfADebianManPage) {
  for (const char* tool : kTools) {
    const std::string path = man_page(tool);
    const std::string page = test::read_file(path);
    std::string upper = tool;
    for (char& c : upper) c = static_cast<char>(std::toupper(c));
    EXPECT_EQ(page.rfind(".TH " + upper + " 1 ", 0), 0u) << path;
    std::size_t previous = 0;
    for (const char* section :
         {"NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXAMPLES", "EXIT STATUS", "SEE ALSO"}) {
      const std::size_t at = page.find(std::string("\n.SH ") + section + "\n");
      ASSERT_NE(at, std::string::npos) << path << ": no section " << section;
      EXPECT_GT(at, previous) << path << ": section " << section << " out of order";
      previous = at;
    }
    EXPECT_NE(page.find("\n.SH NAME\n" + std::string(tool) + " \\- "), std::string::npos) << path;
    // The exit statuses the tools use (tools/tool_main.h): 0, 1 and 2.
    const std::string exit_status = page.substr(page.find("\n.SH EXIT STATUS\n"));
    for (const char* status : {"\n.B 0\n", "\n.B 1\n", "\n.B 2\n"}) {
      EXPECT_NE(exit_status.find(status), std::string::npos) << path << ": exit status " << status;
    }
  }
}

}  // namespace
}  // namespace cdl
