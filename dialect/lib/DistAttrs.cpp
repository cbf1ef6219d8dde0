//===- DistAttrs.cpp - #dist.sharding and !dist.handle -----------------------===//

#include "Dist/DistDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::dist;

#include "Dist/DistEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "Dist/DistAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "Dist/DistTypes.cpp.inc"

void DistDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Dist/DistAttrs.cpp.inc"
      >();
}

void DistDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "Dist/DistTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// ShardingAttr
//===----------------------------------------------------------------------===//

SmallVector<StringRef> ShardingAttr::getDimAxes(unsigned dim) const {
  SmallVector<StringRef> axes;
  for (Attribute axis : cast<ArrayAttr>(getDims()[dim]))
    axes.push_back(cast<StringAttr>(axis).getValue());
  return axes;
}

/// `{"a", "b"}`: an ordered set of mesh axis names.
static ParseResult parseAxisSet(AsmParser &parser,
                                SmallVectorImpl<Attribute> &axes) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Braces, [&] {
    std::string name;
    if (parser.parseString(&name))
      return failure();
    axes.push_back(parser.getBuilder().getStringAttr(name));
    return success();
  });
}

static void printAxisSet(AsmPrinter &printer, ArrayAttr axes) {
  printer << '{';
  llvm::interleaveComma(axes, printer, [&](Attribute axis) {
    printer.printString(cast<StringAttr>(axis).getValue());
  });
  printer << '}';
}

Attribute ShardingAttr::parse(AsmParser &parser, Type) {
  MLIRContext *ctx = parser.getContext();
  SMLoc loc = parser.getCurrentLocation();
  FlatSymbolRefAttr mesh;
  SmallVector<Attribute> dims;
  SmallVector<Attribute> partial;
  ReductionKind kind = ReductionKind::Sum;
  if (parser.parseLess() || parser.parseAttribute(mesh) || parser.parseComma())
    return {};
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
        SmallVector<Attribute> axes;
        if (parseAxisSet(parser, axes))
          return failure();
        dims.push_back(ArrayAttr::get(ctx, axes));
        return success();
      }))
    return {};
  if (succeeded(parser.parseOptionalComma())) {
    StringRef kindName;
    SMLoc kindLoc;
    if (parser.parseKeyword("partial") || parser.parseEqual() ||
        (kindLoc = parser.getCurrentLocation(), false) ||
        parser.parseKeyword(&kindName))
      return {};
    std::optional<ReductionKind> parsed = symbolizeReductionKind(kindName);
    if (!parsed) {
      parser.emitError(kindLoc) << "unknown reduction kind '" << kindName
                                << "', expected sum, avg, max or min";
      return {};
    }
    kind = *parsed;
    if (parseAxisSet(parser, partial))
      return {};
    if (partial.empty()) {
      parser.emitError(kindLoc) << "partial needs at least one mesh axis";
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, ctx, mesh,
                    ArrayAttr::get(ctx, dims), ArrayAttr::get(ctx, partial),
                    kind);
}

void ShardingAttr::print(AsmPrinter &printer) const {
  printer << '<' << getMesh() << ", [";
  llvm::interleaveComma(getDims(), printer, [&](Attribute dim) {
    printAxisSet(printer, cast<ArrayAttr>(dim));
  });
  printer << ']';
  if (isPartial()) {
    printer << ", partial = " << stringifyReductionKind(getPartialKind());
    printAxisSet(printer, getPartialAxes());
  }
  printer << '>';
}

LogicalResult
ShardingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                     FlatSymbolRefAttr mesh, ArrayAttr dims,
                     ArrayAttr partialAxes, ReductionKind kind) {
  if (!mesh)
    return emitError() << "sharding needs a mesh symbol";
  llvm::StringSet<> split;
  auto isAxisList = [](Attribute a) {
    auto list = dyn_cast<ArrayAttr>(a);
    return list && llvm::all_of(list, [](Attribute axis) {
             auto name = dyn_cast<StringAttr>(axis);
             return name && !name.getValue().empty();
           });
  };
  for (Attribute dim : dims) {
    if (!isAxisList(dim))
      return emitError() << "sharding dims must be lists of mesh axis names";
    for (Attribute axis : cast<ArrayAttr>(dim))
      if (!split.insert(cast<StringAttr>(axis).getValue()).second)
        return emitError() << "mesh axis " << axis
                           << " is used twice in the sharding";
  }
  if (!isAxisList(partialAxes))
    return emitError() << "partial axes must be a list of mesh axis names";
  llvm::StringSet<> partial;
  for (Attribute axis : partialAxes) {
    StringRef name = cast<StringAttr>(axis).getValue();
    if (split.contains(name))
      return emitError() << "mesh axis " << axis
                         << " cannot both split a dim and be partial";
    if (!partial.insert(name).second)
      return emitError() << "mesh axis " << axis
                         << " is listed twice as partial";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// HandleType
//===----------------------------------------------------------------------===//

LogicalResult HandleType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<Type> types) {
  if (types.empty())
    return emitError() << "a handle carries at least one result type";
  for (Type type : types)
    if (!isa<RankedTensorType>(type))
      return emitError() << "a handle carries ranked tensor types, got "
                         << type;
  return success();
}
