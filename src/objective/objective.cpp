#include "objective/objective.h"

#include <memory>
#include <type_traits>
#include <utility>

#include "objective/margin_objective.h"
#include "util/error.h"

namespace cdl {

std::unique_ptr<CoordinateObjective> make_coordinate_objective(LossKind loss,
                                                               const Problem& problem,
                                                               const Regularizer& regularizer) {
  return with_margin_objective(loss, problem, regularizer, 1,
                               [](auto& objective) -> std::unique_ptr<CoordinateObjective> {
                                 using Concrete = std::remove_reference_t<decltype(objective)>;
                                 return std::make_unique<Concrete>(std::move(objective));
                               });
}

}  // namespace cdl
