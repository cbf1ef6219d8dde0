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
//   string without checking, and crashes.
//
// Comments and string literals are skipped; anything else is left to the
// parser, which reports it.
//
//===----------------------------------------------------------------------===//

#include "ParseGuards.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace {
/// The largest result number `%v#N` may name: more than any op here has.
constexpr uint64_t kMaxResultNumber = 1 << 20;

bool isIdChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.' || c == '-';
}

/// A position in the source, with its line and column.
class Scanner {
public:
  Scanner(MLIRContext *ctx, StringRef source, StringRef filename)
      : ctx(ctx), source(source), filename(filename) {}

  LogicalResult run() {
    while (pos < source.size()) {
      char c = source[pos];
      if (c == '/' && source.substr(pos).starts_with("//"))
        skipTo('\n');
      else if (c == '"')
        skipString();
      else if (c == '%' && failed(resultNumber()))
        return failure();
      else if (c == 'i' && startsWord("iterator_types") && failed(iteratorTypes()))
        return failure();
      else
        advance();
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
           (pos == 0 || !isIdChar(source[pos - 1])) &&
           (pos + word.size() >= source.size() ||
            !isIdChar(source[pos + word.size()]));
  }

  InFlightDiagnostic error() const {
    return emitError(FileLineColLoc::get(ctx, filename, line, column));
  }

  /// At a `%`: a value use, maybe with a result number.
  LogicalResult resultNumber() {
    size_t end = pos + 1;
    while (end < source.size() && isIdChar(source[end]))
      ++end;
    if (end == pos + 1 || end >= source.size() || source[end] != '#') {
      advance();
      return success();
    }
    size_t digits = end + 1, stop = digits;
    uint64_t number = 0;
    for (; stop < source.size() && llvm::isDigit(source[stop]); ++stop)
      number = std::min(number * 10 + (source[stop] - '0'), kMaxResultNumber + 1);
    if (number > kMaxResultNumber)
      return error() << "result number " << source.slice(digits, stop)
                     << " of " << source.slice(pos, end) << " is above "
                     << kMaxResultNumber << ", the most an op may have here";
    advance(stop - pos);
    return success();
  }

  /// At `iterator_types`: when a list follows, each entry is a string, an
  /// iterator type attribute or an alias.
  LogicalResult iteratorTypes() {
    advance(StringRef("iterator_types").size());
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
};
} // namespace

LogicalResult mlir::dist::checkParserGuards(MLIRContext *ctx, StringRef source,
                                            StringRef filename) {
  return Scanner(ctx, source, filename).run();
}
