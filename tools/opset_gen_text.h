// Text helpers for graphgc-opset-gen: C++ identifiers from ONNX names, one-sentence summaries of
// schema docs, and line wrapping that keeps the generated code within the project's 100 columns.
#ifndef GRAPHGC_TOOLS_OPSET_GEN_TEXT_H_
#define GRAPHGC_TOOLS_OPSET_GEN_TEXT_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace graphgc::opset_gen {

inline constexpr int kColumnLimit = 100;

// `name` as a C++ identifier: characters other than letters, digits and '_' become '_', and a
// C++ keyword or a name the generated code uses itself gets a trailing '_'. `*renamed` says
// whether a keyword or reserved name forced the underscore (the generated docs mention it).
std::string Identifier(absl::string_view name, bool* renamed);

// The same for a language whose reserved names `is_reserved` tells (the Python generator's).
std::string IdentifierAvoiding(absl::string_view name, bool (*is_reserved)(absl::string_view),
                               bool* renamed);

// The first sentence of an ONNX schema doc, with markdown and HTML markup removed and
// whitespace collapsed; capped at about two comment lines. Empty for an empty doc.
std::string DocSummary(absl::string_view doc);

// Joins words that comment wrapping must keep on one line ("opset\x1f""13"); printed as a space.
inline constexpr char kNoBreak = '\x1f';

// `text` as `//` comment lines indented by `indent` spaces, word-wrapped at kColumnLimit.
std::string CommentBlock(absl::string_view text, int indent);

// `text` word-wrapped at kColumnLimit: the first line starts with `first_prefix`, the others
// with `next_prefix` (for list items with a hanging indent).
std::string CommentLines(absl::string_view text, absl::string_view first_prefix,
                         absl::string_view next_prefix);

// A call or declaration: `head` (ending in '(' or '{'), the comma-separated `args`, then `tail`.
// On one line when it fits; otherwise the arguments are packed onto lines aligned after the
// head, or, when even that overflows, onto lines indented four spaces past `indent`. With
// `fewest_lines`, the second layout is also taken when it needs fewer lines than the first.
// Ends with a newline.
std::string WrapList(absl::string_view head, const std::vector<std::string>& args,
                     absl::string_view tail, int indent, bool fewest_lines = false);

// The shortest decimal text that reads back as `value` (deterministic across platforms).
std::string FormatFloat(float value);

}  // namespace graphgc::opset_gen

#endif  // GRAPHGC_TOOLS_OPSET_GEN_TEXT_H_
