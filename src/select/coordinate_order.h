// The selection rules of today's CD variants in one include: cyclic (CD),
// permutation (CDPER, CDPERONE) and uniform draws (online CD).
// CoordinateOrder is the rule interface's name from before --select.
#ifndef CDL_SELECT_COORDINATE_ORDER_H_
#define CDL_SELECT_COORDINATE_ORDER_H_

#include "select/cyclic_order.h"
#include "select/permutation_order.h"
#include "select/random.h"
#include "select/random_order.h"
#include "select/selection_rule.h"

namespace cdl {

using CoordinateOrder = SelectionRule;

}  // namespace cdl

#endif  // CDL_SELECT_COORDINATE_ORDER_H_
