//===- ParseGuards.cpp - refuse inputs that crash MLIR 22's parser -------===//
//
// dist-fuzz found inputs on which upstream MLIR 22 (LLVM 22.1, built without
// assertions) crashes while parsing; mlir-opt crashes on them too. Until the
// parser is fixed upstream, the driver's parse entry scans the text for them
// first and reports each as an ordinary located error:
//
// - a reference to result N of a value not yet defined (`%v#N`): the parser
//   reserves an entry for every result below N before it sees the op, so
//   `%v#2147483647` asks for 32 GiB and aborts;
// - a `linalg.generic` whose `iterator_types` holds anything but strings or
//   `#linalg.iterator_type`s (`[4]`): its parser reads every entry as a
//   string without checking, and crashes;
// - a dense array of `index` (`array<index: 1>`): the parser asks `index`
//   for its bit width, and crashes;
// - a value used before it is defined in a region nested below the use (`%a`
//   used, then `^bb0(%a: f32)` or `%a = ...` inside a later op's region): the
//   parser ties the use to that definition, and when the region then fails
//   to parse, frees it under the use (heap corruption that crashes later).
//   Such a use is invalid IR in any case.
//
// Comments and string literals are skipped; anything else is left to the
// parser, which reports it.
//
//===----------------------------------------------------------------------===//

#include "ParseGuards.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;

namespace {
/// The largest result number `%v#N` may name: more than any op here has.
constexpr uint64_t kMaxResultNumber = 1 << 20;

/// A character of an SSA name (`%a-1` is one name).
bool isIdChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.' || c == '-';
}

/// A character of a bare identifier or keyword (`index-` is `index`, `-`).
bool isBareIdChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.';
}

/// A position in the source, with its line and column.
class Scanner {
public:
  Scanner(MLIRContext *ctx, StringRef source, StringRef filename)
      : ctx(ctx), source(source), filename(filename) {}

  LogicalResult run() {
    groups.emplace_back();
    while (pos < source.size()) {
      char c = source[pos];
      if (c == '/' && source.substr(pos).starts_with("//")) {
        skipTo('\n');
      } else if (c == '"') {
        size_t start = pos;
        skipString();
        if (source.slice(start, pos) == "\"iterator_types\"" &&
            failed(iteratorTypes()))
          return failure();
      } else if (c == '%') {
        if (failed(value()))
          return failure();
      } else if (c == 'i' && startsWord("iterator_types")) {
        advance(StringRef("iterator_types").size());
        if (failed(iteratorTypes()))
          return failure();
      } else if (c == 'a' && startsWord("array")) {
        if (failed(denseArray()))
          return failure();
      } else {
        if (c == '\n')
          lineStart = true;
        else if (!llvm::isSpace(c))
          lineStart = false;
        if (!llvm::isSpace(c) && c != ',')
          resultList = false;
        if (c == '{')
          groups.emplace_back();
        else if (c == '}' && groups.size() > 1)
          closeGroup();
        else if (c == '(')
          parens.push_back(definesValues());
        else if (c == ')' && !parens.empty())
          parens.pop_back();
        advance();
      }
    }
    return success();
  }

private:
  void advance(size_t n = 1) {
    for (; n && pos < source.size(); --n, ++pos) {
      if (source[pos] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
  }

  void skipTo(char end) {
    while (pos < source.size() && source[pos] != end)
      advance();
  }

  void skipSpaces() {
    while (pos < source.size() && llvm::isSpace(source[pos]))
      advance();
  }

  /// A string literal (to its closing quote or the end of the line).
  void skipString() {
    advance();
    while (pos < source.size() && source[pos] != '"' && source[pos] != '\n')
      advance(source[pos] == '\\' ? 2 : 1);
    if (pos < source.size() && source[pos] == '"')
      advance();
  }

  bool startsWord(StringRef word) const {
    return source.substr(pos).starts_with(word) &&
           (pos == 0 || !isBareIdChar(source[pos - 1])) &&
           (pos + word.size() >= source.size() ||
            !isBareIdChar(source[pos + word.size()]));
  }

  InFlightDiagnostic error() const {
    return emitError(FileLineColLoc::get(ctx, filename, line, column));
  }

  /// A `{...}` of the source: the values defined in it so far, and the
  /// values first seen in it as uses (with where), not yet defined.
  struct Group {
    llvm::StringSet<> seen;
    llvm::StringMap<std::pair<unsigned, unsigned>> pending;
  };

  /// Whether the `(` at `pos` opens a list of definitions: the arguments of
  /// a block label (`^bb0(`) or of a symbol (`@f(`, a function signature).
  bool definesValues() const {
    size_t i = pos;
    while (i > 0 && isIdChar(source[i - 1]))
      --i;
    return i > 0 && i < pos && (source[i - 1] == '^' || source[i - 1] == '@');
  }

  bool seenAbove(StringRef name) const {
    return llvm::any_of(groups, [&](const Group &g) { return g.seen.contains(name); });
  }

  /// A use still undefined when its group closes stays pending in the
  /// enclosing one: the parser may yet tie it to a definition further on
  /// (a stray `}` ends a function early, and a later op's region defines
  /// the name).
  void closeGroup() {
    Group closed = groups.pop_back_val();
    for (auto &use : closed.pending)
      groups.back().pending.try_emplace(use.getKey(), use.getValue());
  }

  /// The next non-space character from `from`, skipping `:digits`.
  char nextSignificant(size_t from) const {
    size_t i = from;
    while (i < source.size() && llvm::isSpace(source[i]) && source[i] != '\n')
      ++i;
    if (i < source.size() && source[i] == ':' && i + 1 < source.size() &&
        llvm::isDigit(source[i + 1])) {
      ++i;
      while (i < source.size() && llvm::isDigit(source[i]))
        ++i;
      while (i < source.size() && llvm::isSpace(source[i]) && source[i] != '\n')
        ++i;
    }
    return i < source.size() ? source[i] : '\0';
  }

  /// At a `%`: a value defined or used, maybe with a result number.
  LogicalResult value() {
    size_t end = pos + 1;
    while (end < source.size() && isIdChar(source[end]))
      ++end;
    if (end == pos + 1)
      return advance(), success();
    StringRef name = source.slice(pos + 1, end);
    char next = nextSignificant(end);
    bool blockArgument = !parens.empty() && parens.back();
    // `%a, %b, %c = op`: every name of a list that starts a line and ends
    // at `=` is a result.
    bool listed = (lineStart || resultList) && next == ',';
    bool defined = blockArgument || next == '=' || listed ||
                   (resultList && next == '=');
    resultList = listed;
    if (defined && failed(define(name)))
      return failure();
    if (!defined && !seenAbove(name))
      groups.back().pending.try_emplace(name, line, column);
    groups.back().seen.insert(name);
    lineStart = false;
    return resultNumber(end);
  }

  /// `name` defined here: a definition in a region below the group where it
  /// was first used is the parser's use-after-free.
  LogicalResult define(StringRef name) {
    for (Group &group : llvm::make_range(groups.begin(), std::prev(groups.end()))) {
      auto use = group.pending.find(name);
      if (use == group.pending.end())
        continue;
      auto [useLine, useColumn] = use->second;
      InFlightDiagnostic diag =
          emitError(FileLineColLoc::get(ctx, filename, useLine, useColumn))
          << "%" << name << " is used before its definition in a region "
          << "nested below the use, which it cannot see";
      diag.attachNote(FileLineColLoc::get(ctx, filename, line, column))
          << "defined here";
      return diag;
    }
    groups.back().pending.erase(name);
    return success();
  }

  /// After a value's name at `end`: its result number, if any.
  LogicalResult resultNumber(size_t end) {
    size_t hash = end;
    // The lexer skips spaces and comments between `%v` and `#N`.
    while (hash < source.size()) {
      if (llvm::isSpace(source[hash]))
        ++hash;
      else if (source.substr(hash).starts_with("//"))
        hash = std::min(source.find('\n', hash), source.size());
      else
        break;
    }
    if (hash >= source.size() || source[hash] != '#') {
      advance(end - pos);
      return success();
    }
    size_t digits = hash + 1, stop = digits;
    uint64_t number = 0;
    for (; stop < source.size() && llvm::isDigit(source[stop]); ++stop)
      number = std::min(number * 10 + (source[stop] - '0'), kMaxResultNumber + 1);
    if (number > kMaxResultNumber)
      return error() << "result number " << source.slice(digits, stop)
                     << " of " << source.slice(pos, end) << " is above "
                     << kMaxResultNumber << ", the most an op may have here";
    advance(end - pos);
    return success();
  }

  /// At `array`: a dense array's element type must have a bit width.
  LogicalResult denseArray() {
    size_t at = pos + StringRef("array").size();
    while (at < source.size() && llvm::isSpace(source[at]))
      ++at;
    if (at < source.size() && source[at] == '<') {
      ++at;
      while (at < source.size() && llvm::isSpace(source[at]))
        ++at;
      StringRef rest = source.substr(at);
      if (rest.starts_with("index") &&
          (rest.size() == 5 || !isBareIdChar(rest[5])))
        return error() << "dense arrays of index are not supported (give "
                          "i64 elements)";
    }
    advance(StringRef("array").size());
    return success();
  }

  /// At `iterator_types`: when a list follows, each entry is a string, an
  /// iterator type attribute or an alias.
  /// After the key `iterator_types` (bare or quoted).
  LogicalResult iteratorTypes() {
    skipSpaces();
    if (pos >= source.size() || source[pos] != '=')
      return success();
    advance();
    skipSpaces();
    if (pos >= source.size() || source[pos] != '[')
      return success();
    advance();
    while (true) {
      skipSpaces();
      if (pos >= source.size() || source[pos] == ']')
        return success();
      if (source[pos] == '"') {
        skipString();
      } else if (source[pos] == '#') {
        // `#linalg.iterator_type<...>` or an alias: the name, then any
        // `<...>` is the parser's to check.
        advance();
        while (pos < source.size() && isIdChar(source[pos]))
          advance();
      } else {
        size_t end = pos;
        while (end < source.size() && !llvm::isSpace(source[end]) &&
               source[end] != ',' && source[end] != ']')
          ++end;
        return error() << "iterator_types entries are \"parallel\", "
                          "\"reduction\" or \"window\" (or "
                          "#linalg.iterator_type), not '"
                       << source.slice(pos, end) << "'";
      }
      skipSpaces();
      if (pos < source.size() && source[pos] == '<')
        skipTo('>');
      if (pos < source.size() && source[pos] == '>')
        advance();
      skipSpaces();
      if (pos >= source.size() || source[pos] != ',')
        return success();
      advance();
    }
  }

  MLIRContext *ctx;
  StringRef source, filename;
  size_t pos = 0;
  unsigned line = 1, column = 1;
  /// Only spaces since the last newline: a `%v,` there starts a result list.
  bool lineStart = true;
  /// Within `%a, %b, ... =` at the start of a line.
  bool resultList = false;
  /// The braces open at `pos`, outermost first.
  SmallVector<Group> groups;
  /// The parentheses open at `pos`: whether each lists definitions.
  SmallVector<bool> parens;
};
} // namespace

LogicalResult mlir::dist::checkParserGuards(MLIRContext *ctx, StringRef source,
                                            StringRef filename) {
  return Scanner(ctx, source, filename).run();
}
