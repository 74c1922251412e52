// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Issue 49 #4: every command, flag and machine preset that README.md and
// docs/ name in code (fenced blocks and `inline` spans) exists. A command is
// `schedsim CMD` (also `//:schedsim -- CMD`); its flags are the `--name`
// tokens that follow on the same invocation (continuation lines of a usage
// block, or lines ending in a backslash), up to a pipe, a `;`, `&&`, a
// comment or the next `schedsim`, and each must appear in `schedsim CMD
// --help`. A preset is `--machine=NAME` or `"machine": "NAME"` and must be
// one of topology::PresetNames().

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "cli/cli.h"
#include "gtest/gtest.h"
#include "topology/presets.h"

namespace schedsim {
namespace {

// The reference documents: every Markdown file of docs/ and docs/policies/
// (//docs:reference, a glob, so a new page is checked without a list to
// keep), README.md first. docs/notebook/ is not reference: its dated
// entries may name what has since gone. Paths are relative to the
// runfiles root.
std::vector<std::string> DocFiles() {
  std::vector<std::string> files;
  for (const char* dir : {"docs", "docs/policies"}) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      const std::string path = entry.path().string();
      if (entry.path().extension() == ".md" && entry.is_regular_file()) {
        files.push_back(path);
      }
    }
  }
  std::sort(files.begin(), files.end());
  files.insert(files.begin(), "README.md");
  return files;
}

// Words after "schedsim " in code that are not commands, and why.
const std::set<std::string>& NotCommands() {
  static const auto* words = new std::set<std::string>{
      "settings",  // the govd snapshot's first line, "schedsim settings ..."
  };
  return *words;
}

struct Region {
  std::string file;
  int line = 0;                    // of its first line
  std::vector<std::string> lines;  // a fenced block's, or one span
  bool fenced = false;
};

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Fenced blocks, and the inline spans of the text between them (paragraphs
// joined, so that a span wrapped over two lines is one).
std::vector<Region> CodeRegions(const std::string& file,
                                const std::string& text) {
  std::vector<Region> out;
  std::vector<std::string> lines = absl::StrSplit(text, '\n');
  std::string prose;
  int prose_line = 1;
  const auto flush_prose = [&]() {
    // Inline spans: `...` pairs.
    size_t at = 0;
    while ((at = prose.find('`', at)) != std::string::npos) {
      if (prose.compare(at, 3, "```") == 0) {
        at += 3;
        continue;
      }
      const size_t end = prose.find('`', at + 1);
      if (end == std::string::npos) break;
      Region r;
      r.file = file;
      r.line = prose_line;
      r.lines.push_back(prose.substr(at + 1, end - at - 1));
      out.push_back(std::move(r));
      at = end + 1;
    }
    prose.clear();
  };
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    const size_t fence = line.find("```");
    if (fence != std::string::npos && line.find_first_not_of(' ') == fence) {
      flush_prose();
      Region r;
      r.file = file;
      r.line = static_cast<int>(i) + 2;
      r.fenced = true;
      for (++i; i < lines.size(); ++i) {
        const size_t close = lines[i].find("```");
        if (close != std::string::npos &&
            lines[i].find_first_not_of(' ') == close) {
          break;
        }
        r.lines.push_back(lines[i]);
      }
      out.push_back(std::move(r));
      prose_line = static_cast<int>(i) + 2;
      continue;
    }
    if (prose.empty()) prose_line = static_cast<int>(i) + 1;
    prose += line;
    prose += ' ';
  }
  flush_prose();
  return out;
}

struct Invocation {
  std::string where;  // file:line
  std::string command;
  std::vector<std::string> flags;
  std::string text;
};

// The text of an invocation ends at a pipe, a `;`, `&&`, a comment or the
// next `schedsim`.
std::string CutAtEnd(const std::string& rest) {
  size_t end = rest.size();
  for (const char* stop : {" | ", ";", "&&", " #", "schedsim"}) {
    end = std::min(end, rest.find(stop));
  }
  return rest.substr(0, end);
}

std::vector<Invocation> Invocations(const Region& r) {
  static const std::regex command(
      R"((?:^|[\s/:(`'"$])schedsim(?: --)? ([a-z][a-z_-]*))");
  static const std::regex flag(R"((?:^|[\s\[(|,`'"])--([a-z][a-z0-9-]*))");
  std::vector<Invocation> out;
  for (size_t i = 0; i < r.lines.size(); ++i) {
    const std::string& line = r.lines[i];
    for (std::sregex_iterator m(line.begin(), line.end(), command), end;
         m != end; ++m) {
      Invocation inv;
      inv.where = absl::StrCat(r.file, ":", r.line + static_cast<int>(i));
      inv.command = (*m)[1];
      std::string text = CutAtEnd(line.substr(m->position(0) + m->length(0)));
      // Continuation lines of a fenced usage or shell block.
      for (size_t j = i + 1; r.fenced && j < r.lines.size(); ++j) {
        const std::string& prev = r.lines[j - 1];
        const bool backslash = !prev.empty() && prev.back() == '\\';
        const bool indented = !r.lines[j].empty() && r.lines[j][0] == ' ' &&
                              r.lines[j].find("schedsim") == std::string::npos;
        if (!backslash && !indented) break;
        text += " " + CutAtEnd(r.lines[j]);
      }
      inv.text = text;
      for (std::sregex_iterator f(text.begin(), text.end(), flag), fend;
           f != fend; ++f) {
        inv.flags.push_back((*f)[1]);
      }
      out.push_back(std::move(inv));
    }
  }
  return out;
}

TEST(DocsNamesTest, EveryCommandFlagAndPresetNamedExists) {
  std::map<std::string, std::string> help;  // command -> --help output
  const auto help_of = [&](const std::string& cmd) -> const std::string* {
    auto it = help.find(cmd);
    if (it == help.end()) {
      std::ostringstream out, err;
      const int code = cli::RunCli({cmd, "--help"}, out, err);
      it = help.emplace(cmd, code == 0 ? out.str() : "").first;
    }
    return it->second.empty() ? nullptr : &it->second;
  };
  const std::vector<std::string>& presets = topology::PresetNames();
  static const std::regex machine_flag(R"(--machine=([a-z0-9][a-z0-9._-]*))");
  static const std::regex machine_key(R"re("machine":\s*"([^"]*)")re");
  int commands = 0, flags = 0, named_presets = 0;
  const std::vector<std::string> files = DocFiles();
  // README.md, docs/*.md and docs/policies/*.md: 28 files when the check
  // was written; a runfiles tree without them would check nothing.
  ASSERT_GE(files.size(), 25u);
  for (const std::string& file : files) {
    const std::string text = ReadAll(file);
    ASSERT_FALSE(text.empty()) << file;
    for (const Region& r : CodeRegions(file, text)) {
      for (const Invocation& inv : Invocations(r)) {
        if (NotCommands().count(inv.command) > 0) continue;
        ++commands;
        const std::string* h = help_of(inv.command);
        if (h == nullptr) {
          ADD_FAILURE() << inv.where << ": `schedsim " << inv.command
                        << "` is not a command (`schedsim " << inv.command
                        << " --help` fails)";
          continue;
        }
        for (const std::string& f : inv.flags) {
          ++flags;
          if (f == "help") continue;
          EXPECT_NE(h->find("--" + f), std::string::npos)
              << inv.where << ": `schedsim " << inv.command << "` has no --"
              << f << " (in: " << inv.text << ")";
        }
      }
      for (const std::string& line : r.lines) {
        for (const std::regex* re : {&machine_flag, &machine_key}) {
          for (std::sregex_iterator m(line.begin(), line.end(), *re), end;
               m != end; ++m) {
            const std::string name = (*m)[1];
            // Files (an hwloc XML, a sysfs tree) are not presets.
            if (name.find('/') != std::string::npos ||
                name.find(".xml") != std::string::npos ||
                name.find(".json") != std::string::npos || name == "NAME") {
              continue;
            }
            ++named_presets;
            EXPECT_NE(std::find(presets.begin(), presets.end(), name),
                      presets.end())
                << r.file << ":" << r.line << ": no machine preset '" << name
                << "'";
          }
        }
      }
    }
  }
  // The scan found what the docs name (a parser that finds nothing would
  // pass anything).
  EXPECT_GT(commands, 100);
  EXPECT_GT(flags, 150);
  EXPECT_GE(named_presets, 5);
  std::cout << commands << " invocations, " << flags << " flags, "
            << named_presets << " presets checked\n";
}

// Issue 43 #4: a machine added to the registry (topology::Presets()) is
// documented: a row of docs/topology.md's "Built-in machines" (the NPS
// modes of one part may share a row, `zen3-2s-nps1/2/4`), and the machine
// lists of docs/cli.md (`topology --machine`), docs/cli-simulate.md (the
// scenario's `machine`) and docs/experiments.md.
TEST(DocsNamesTest, EveryBuiltInMachineIsDocumented) {
  const std::string topology = ReadAll("docs/topology.md");
  const size_t table = topology.find("## Built-in machines");
  ASSERT_NE(table, std::string::npos);
  const std::string machines = topology.substr(table);
  const std::string cli = ReadAll("docs/cli.md");
  const std::string cli_simulate = ReadAll("docs/cli-simulate.md");
  const std::string experiments = ReadAll("docs/experiments.md");
  ASSERT_FALSE(topology::Presets().empty());
  for (const topology::PresetEntry& p : topology::Presets()) {
    const std::string name = p.name;
    const std::string quoted = "`" + name + "`";
    std::string shared = quoted;  // `zen3-2s-nps1/2/4` for zen3-2s-nps2
    const size_t nps = name.rfind("-nps");
    if (nps != std::string::npos) shared = "`" + name.substr(0, nps + 4);
    EXPECT_TRUE(machines.find(quoted) != std::string::npos ||
                machines.find(shared) != std::string::npos)
        << name << ": no row in docs/topology.md, \"Built-in machines\"";
    EXPECT_NE(cli.find(quoted), std::string::npos)
        << name << ": not in docs/cli.md's machine list (`--machine`)";
    EXPECT_NE(cli_simulate.find(quoted), std::string::npos)
        << name << ": not in docs/cli-simulate.md's machine list (`machine`)";
    EXPECT_NE(experiments.find(quoted), std::string::npos)
        << name << ": not in docs/experiments.md's machine list";
    EXPECT_NE(std::string(p.summary), "") << name;
  }
}

// Issue 43 #5: a reference page says what a thing is, how to use it and
// where it stands, and stays under 500 lines; dated measurements go to
// docs/notebook/ and a long page splits by topic. A generated block
// (between `<!-- NAME:begin -->` and `<!-- NAME:end -->`, e.g. the
// scoreboard dev/validation-report writes) does not count.
constexpr int kMaxReferenceLines = 500;

int ReferenceLines(const std::string& text) {
  if (text.empty()) return 0;
  int lines = 0;
  bool generated = false;
  for (const absl::string_view line : absl::StrSplit(text, '\n')) {
    if (absl::StartsWith(line, "<!-- ") && absl::EndsWith(line, ":end -->")) {
      generated = false;
    }
    if (!generated) ++lines;
    if (absl::StartsWith(line, "<!-- ") && absl::EndsWith(line, ":begin -->")) {
      generated = true;
    }
  }
  // A final newline ends the last line; it does not start another.
  if (!text.empty() && text.back() == '\n') --lines;
  return lines;
}

TEST(DocsSizeTest, EveryReferencePageIsUnder500Lines) {
  int pages = 0;
  for (const std::string& file : DocFiles()) {
    if (file == "README.md") continue;
    ++pages;
    const int lines = ReferenceLines(ReadAll(file));
    EXPECT_LT(lines, kMaxReferenceLines)
        << file << " has " << lines << " lines (generated blocks aside): "
        << "move its dated measurements and dropped experiments to "
        << "docs/notebook/ as dated entries, or split it by topic with an "
        << "index in the parent page";
  }
  EXPECT_GE(pages, 24);
}

TEST(DocsSizeTest, TheCountSkipsGeneratedBlocksOnly) {
  EXPECT_EQ(ReferenceLines(""), 0);
  EXPECT_EQ(ReferenceLines("a\nb\n"), 2);
  EXPECT_EQ(ReferenceLines("a\nb"), 2);
  EXPECT_EQ(ReferenceLines("a\n<!-- board:begin -->\nx\ny\nz\n"
                           "<!-- board:end -->\nb\n"),
            4);
  std::string long_page;
  for (int i = 0; i < kMaxReferenceLines; ++i) long_page += "line\n";
  EXPECT_EQ(ReferenceLines(long_page), kMaxReferenceLines);  // too long
  EXPECT_EQ(ReferenceLines("<!-- a comment -->\n" + long_page),
            kMaxReferenceLines + 1);
}

// The scan itself: what it must catch.
TEST(DocsNamesTest, TheScanFindsUnknownCommandsAndFlags) {
  const std::vector<Region> regions = CodeRegions(
      "x.md",
      "Run `schedsim run\nFILE --jobs=2 --bogus` now.\n\n```sh\n"
      "schedsim govd --governor=schedutil \\\n    --apply | head -1\n"
      "schedsim nope --x\n```\n");
  std::vector<Invocation> all;
  for (const Region& r : regions) {
    for (Invocation& inv : Invocations(r)) all.push_back(std::move(inv));
  }
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].command, "run");
  EXPECT_EQ(all[0].flags, (std::vector<std::string>{"jobs", "bogus"}));
  EXPECT_EQ(all[1].command, "govd");
  EXPECT_EQ(all[1].flags, (std::vector<std::string>{"governor", "apply"}));
  EXPECT_EQ(all[1].where, "x.md:5");
  EXPECT_EQ(all[2].command, "nope");
}

}  // namespace
}  // namespace schedsim
