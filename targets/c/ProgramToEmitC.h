//===- ProgramToEmitC.h - the np.program as the C target's tables -*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_TARGETS_C_PROGRAMTOEMITC_H
#define NPCC_TARGETS_C_PROGRAMTOEMITC_H

#include "targets/emitc/NPToEmitC.h"

namespace npcc::c {

/// The np.program as constant runtime tables and main(), the C target's
/// part of the conversion of targets/emitc.
void populateCProgramPatterns(mlir::TypeConverter &converter,
                              mlir::RewritePatternSet &patterns,
                              const toemitc::NPLoweringInfo &info);

} // namespace npcc::c

#endif // NPCC_TARGETS_C_PROGRAMTOEMITC_H
