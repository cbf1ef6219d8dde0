//===- Dist.td - the whole dist dialect, for documentation ---*- tablegen -*-===//

#ifndef DIST_TD
#define DIST_TD

include "Dist/DistAttrs.td"
include "Dist/DistTypes.td"
include "Dist/DistOps.td"
include "Dist/DistCollectiveOps.td"
include "Dist/DistOptimizerOps.td"
include "Dist/DistMathOps.td"
include "Dist/DistLogicOps.td"
include "Dist/DistPipelineOps.td"

#endif // DIST_TD
