#include "opset_gen_text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"

namespace graphgc::opset_gen {
namespace {

// Summaries longer than this are cut at a word; two comment lines hold about this much.
constexpr size_t kMaxSummary = 190;

bool IsReserved(absl::string_view name) {
  // The C++20 keywords, and the names the generated code uses itself (parameters, members,
  // locals, namespaces and types), which an input or field of the same name would shadow.
  static const std::set<absl::string_view>* const kReserved = new std::set<absl::string_view>{
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break",
      "case", "catch", "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept",
      "const", "consteval", "constexpr", "constinit", "const_cast", "continue", "co_await",
      "co_return", "co_yield", "decltype", "default", "delete", "do", "double", "dynamic_cast",
      "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto",
      "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
      "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register",
      "reinterpret_cast", "requires", "return", "short", "signed", "sizeof", "static",
      "static_assert", "static_cast", "struct", "switch", "template", "this", "thread_local",
      "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using",
      "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
      // Used by the generated code.
      "absl", "attributes", "graph", "Graph", "graphgc", "internal", "num_outputs", "opset", "std",
      "Subgraph", "Tensor", "Var", "VarType"};
  return kReserved->count(name) > 0;
}

bool IsIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The lines of the first prose paragraph: fenced code blocks are skipped, and HTML line breaks
// (the ai.onnx.ml docs use them instead of blank lines) end a paragraph like a blank line does.
std::vector<std::string> FirstParagraph(absl::string_view doc) {
  std::string text =
      absl::StrReplaceAll(doc, {{"<br/>", "\n\n"}, {"<br />", "\n\n"}, {"<br>", "\n\n"}});
  std::vector<std::string> lines;
  bool in_fence = false;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    absl::string_view trimmed = absl::StripAsciiWhitespace(line);
    if (absl::StartsWith(trimmed, "```") && trimmed.find("```", 3) == absl::string_view::npos) {
      if (!lines.empty()) break;
      in_fence = !in_fence;
      continue;
    }
    if (in_fence) continue;
    if (trimmed.empty()) {
      if (!lines.empty()) break;
      continue;
    }
    lines.emplace_back(trimmed);
  }
  return lines;
}

// Drops markdown emphasis and keeps a link's text without its target. Code spans keep their
// backticks (they read as code in a C++ comment too), fenced ones reduced to one backtick.
std::string StripMarkdown(absl::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '`' && text.substr(i, 3) == "```") {
      out.push_back('`');
      i += 2;
      continue;
    }
    if (c == '*' && i + 1 < text.size() && text[i + 1] == '*') {
      ++i;
      continue;
    }
    if (c == ']' && i + 1 < text.size() && text[i + 1] == '(') {
      size_t close = text.find(')', i);
      size_t open = out.rfind('[');
      if (close != absl::string_view::npos && open != std::string::npos) {
        out.erase(open, 1);
        i = close;
        continue;
      }
    }
    out.push_back(c);
  }
  return out;
}

// Words that end in a period without ending a sentence.
bool IsAbbreviation(absl::string_view word) {
  static const std::set<absl::string_view>* const kAbbreviations =
      new std::set<absl::string_view>{"e.g", "i.e", "etc", "vs", "a.k.a", "cf", "approx", "resp"};
  return kAbbreviations->count(absl::AsciiStrToLower(word)) > 0;
}

// A period ends a sentence at the end of the text, or before a space and a letter unless it
// closes an abbreviation; that keeps "1.5", "numpy.matmul", "e.g. the" and "..." inside.
size_t SentenceEnd(absl::string_view text) {
  for (size_t i = 1; i < text.size(); ++i) {
    if (text[i] != '.' || text[i - 1] == '.') continue;
    if (i + 1 == text.size()) return i + 1;
    if (text[i + 1] != ' ' || i + 2 >= text.size() ||
        !std::isalpha(static_cast<unsigned char>(text[i + 2]))) {
      continue;
    }
    size_t word_start = text.rfind(' ', i);
    word_start = word_start == absl::string_view::npos ? 0 : word_start + 1;
    std::string word(text.substr(word_start, i - word_start));
    while (!word.empty() && !std::isalnum(static_cast<unsigned char>(word.front()))) {
      word.erase(0, 1);
    }
    if (!IsAbbreviation(word)) return i + 1;
  }
  return text.size();
}

std::string EndWithPeriod(std::string text) {
  while (!text.empty() &&
         (text.back() == ':' || text.back() == ',' || text.back() == ';' || text.back() == ' ')) {
    text.pop_back();
  }
  if (!text.empty() && text.back() != '.' && text.back() != '?' && text.back() != '!') {
    text.push_back('.');
  }
  return text;
}

std::string Cap(std::string text) {
  if (text.size() <= kMaxSummary) return text;
  size_t cut = text.rfind(' ', kMaxSummary - 4);
  text.resize(cut == std::string::npos ? kMaxSummary - 4 : cut);
  // A code span cut in two would leave a stray backtick: drop the unfinished span.
  if (std::count(text.begin(), text.end(), '`') % 2 == 1) text.resize(text.rfind('`'));
  while (!text.empty() &&
         (std::ispunct(static_cast<unsigned char>(text.back())) || text.back() == ' ')) {
    text.pop_back();
  }
  return text + "...";
}

}  // namespace

std::string IdentifierAvoiding(absl::string_view name, bool (*is_reserved)(absl::string_view),
                               bool* renamed) {
  std::string id(name);
  std::replace_if(
      id.begin(), id.end(), [](char c) { return !IsIdentifierChar(c); }, '_');
  if (id.empty() || std::isdigit(static_cast<unsigned char>(id[0]))) id = "_" + id;
  *renamed = is_reserved(id);
  if (*renamed) id.push_back('_');
  return id;
}

std::string Identifier(absl::string_view name, bool* renamed) {
  return IdentifierAvoiding(name, IsReserved, renamed);
}

std::string DocSummary(absl::string_view doc) {
  std::string paragraph = StripMarkdown(absl::StrJoin(FirstParagraph(doc), " "));
  std::vector<absl::string_view> words =
      absl::StrSplit(paragraph, absl::ByAnyChar(" \t"), absl::SkipEmpty());
  std::string text = absl::StrJoin(words, " ");
  // A trailing backslash would splice the next `//` line into this one.
  std::replace(text.begin(), text.end(), '\\', '/');
  text.resize(SentenceEnd(text));
  if (text.empty()) return text;
  return Cap(EndWithPeriod(std::move(text)));
}

std::string CommentBlock(absl::string_view text, int indent) {
  const std::string prefix = std::string(indent, ' ') + "// ";
  return CommentLines(text, prefix, prefix);
}

std::string CommentLines(absl::string_view text, absl::string_view first_prefix,
                         absl::string_view next_prefix) {
  std::string out;
  std::string line(first_prefix);
  size_t prefix_size = first_prefix.size();
  for (absl::string_view word : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    if (line.size() > prefix_size && line.size() + 1 + word.size() > kColumnLimit) {
      out += line + "\n";
      line = std::string(next_prefix);
      prefix_size = next_prefix.size();
    }
    if (line.size() > prefix_size) line += " ";
    std::string piece(word);
    std::replace(piece.begin(), piece.end(), kNoBreak, ' ');
    line += piece;
  }
  if (line.size() > prefix_size) out += line + "\n";
  return out;
}

namespace {

// Packs `args` greedily onto lines; the first line starts with `first`, the others with
// `continuation` spaces. Returns the lines, or an empty vector if one of them overflows.
std::vector<std::string> Pack(absl::string_view first, size_t continuation,
                              const std::vector<std::string>& args, absl::string_view tail,
                              bool first_line_alone) {
  std::vector<std::string> lines;
  std::string line(first);
  bool line_has_args = false;
  if (first_line_alone) {
    lines.push_back(line);
    line = std::string(continuation, ' ');
  }
  for (size_t i = 0; i < args.size(); ++i) {
    std::string piece = args[i] + (i + 1 == args.size() ? std::string(tail) : ",");
    if (line_has_args && line.size() + 1 + piece.size() > kColumnLimit) {
      lines.push_back(line);
      line = std::string(continuation, ' ');
      line_has_args = false;
    }
    if (line_has_args) line += " ";
    line += piece;
    line_has_args = true;
  }
  lines.push_back(line);
  for (const std::string& l : lines) {
    if (l.size() > kColumnLimit) return {};
  }
  return lines;
}

}  // namespace

std::string WrapList(absl::string_view head, const std::vector<std::string>& args,
                     absl::string_view tail, int indent, bool fewest_lines) {
  std::string one_line = std::string(head) + absl::StrJoin(args, ", ") + std::string(tail);
  if (one_line.size() <= kColumnLimit || args.empty()) return one_line + "\n";
  std::vector<std::string> lines = Pack(head, head.size(), args, tail, false);
  std::vector<std::string> indented = Pack(head, indent + 4, args, tail, true);
  if (lines.empty() || (fewest_lines && !indented.empty() && indented.size() < lines.size())) {
    lines = std::move(indented);
  }
  if (lines.empty()) {
    // Nothing fits: one argument per line, four spaces in, even if a line stays long.
    lines.push_back(std::string(head));
    for (size_t i = 0; i < args.size(); ++i) {
      lines.push_back(std::string(indent + 4, ' ') + args[i] +
                      (i + 1 == args.size() ? std::string(tail) : ","));
    }
  }
  return absl::StrJoin(lines, "\n") + "\n";
}

std::string FormatFloat(float value) {
  char buffer[64];
  std::to_chars_result result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, result.ptr);
}

}  // namespace graphgc::opset_gen
